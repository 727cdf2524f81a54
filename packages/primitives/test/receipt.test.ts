import {readJsonVector} from "@xchain/test-utils";
import {bytesToHex, hexToBytes} from "@xchain/utils";
import fc from "fast-check";
import {describe, expect, it} from "vitest";
import {
  encodeRlp,
  type Log,
  logsBloom,
  Receipt,
  ReceiptDecodeError,
  ReceiptDecodeErrorCode,
  type RlpItem,
} from "../src/index.ts";

const {remascOnlyReceipt} = readJsonVector<{remascOnlyReceipt: {rlp: string}}>("remasc-tx-and-trie-roots.json");

const log: Log = {
  address: hexToBytes("0000000000000000000000000000000001000008"),
  topics: [new Uint8Array(32).fill(0xaa), new Uint8Array(32).fill(0xbb)],
  data: Uint8Array.of(1, 2, 3),
};

function decodeError(items: RlpItem[]): ReceiptDecodeErrorCode {
  try {
    Receipt.decode(encodeRlp(items));
  } catch (e) {
    expect(e).toBeInstanceOf(ReceiptDecodeError);
    return (e as ReceiptDecodeError).code;
  }
  throw new Error("decoded without error");
}

describe("Receipt", () => {
  it("encodes the REMASC-only receipt of the vector byte for byte", () => {
    const receipt = new Receipt({success: true, cumulativeGas: 0n, gasUsed: 0n, logs: []});
    expect(bytesToHex(receipt.encode())).toBe(remascOnlyReceipt.rlp);
    expect(receipt.logsBloom).toEqual(new Uint8Array(256));
  });

  it("decodes the vector", () => {
    const receipt = Receipt.decode(hexToBytes(remascOnlyReceipt.rlp));
    expect(receipt.success).toBe(true);
    expect(receipt.cumulativeGas).toBe(0n);
    expect(receipt.gasUsed).toBe(0n);
    expect(receipt.logs).toEqual([]);
  });

  it("writes a failure as empty postTxState and status, gas minimal", () => {
    const receipt = new Receipt({success: false, cumulativeGas: 0x5208n, gasUsed: 256n, logs: [log]});
    const items = [new Uint8Array(0), Uint8Array.of(0x52, 0x08), receipt.logsBloom];
    const expected = encodeRlp([
      ...items,
      [[log.address, log.topics, log.data]],
      Uint8Array.of(1, 0),
      new Uint8Array(0),
    ]);
    expect(receipt.encode()).toEqual(expected);
    expect(receipt.logsBloom).toEqual(logsBloom([log]));
  });

  it("property: decode(encode(x)) == x", () => {
    const logArb = fc.record({
      address: fc.uint8Array({minLength: 20, maxLength: 20}),
      topics: fc.array(fc.uint8Array({minLength: 32, maxLength: 32}), {maxLength: 4}),
      data: fc.uint8Array({maxLength: 64}),
    });
    const gas = fc.bigInt({min: 0n, max: 2n ** 63n - 1n});
    fc.assert(
      fc.property(fc.boolean(), gas, gas, fc.array(logArb, {maxLength: 4}), (success, cumulativeGas, gasUsed, logs) => {
        const receipt = new Receipt({success, cumulativeGas, gasUsed, logs});
        const decoded = Receipt.decode(receipt.encode());
        expect(decoded).toEqual(receipt);
        expect(decoded.encode()).toEqual(receipt.encode());
      }),
      {numRuns: 500},
    );
  });
});

describe("Receipt.decode errors", () => {
  const ok = Uint8Array.of(1);
  const empty = new Uint8Array(0);
  const bloom = new Uint8Array(256);
  const logItem = (l: Log): RlpItem => [l.address, l.topics, l.data];
  const base = (): RlpItem[] => [ok, empty, bloom, [], empty, ok];
  const C = ReceiptDecodeErrorCode;
  const replace = (i: number, item: RlpItem) => base().map((x, j) => (j === i ? item : x));

  it("BAD_RLP: garbage, a list for a string, a string for a list", () => {
    expect(() => Receipt.decode(Uint8Array.of(0xf9, 1))).toThrow(ReceiptDecodeError);
    expect(decodeError(replace(1, []))).toBe(C.BAD_RLP);
    expect(decodeError(replace(3, empty))).toBe(C.BAD_RLP);
    expect(decodeError(replace(3, [[log.address, empty, log.data]]))).toBe(C.BAD_RLP);
  });

  it("WRONG_FIELD_COUNT: the 5-element form and 7 elements", () => {
    expect(decodeError(base().slice(0, 5))).toBe(C.WRONG_FIELD_COUNT);
    expect(decodeError([...base(), empty])).toBe(C.WRONG_FIELD_COUNT);
  });

  it("BAD_STATUS: mismatched or other values", () => {
    expect(decodeError(replace(5, empty))).toBe(C.BAD_STATUS);
    expect(decodeError(replace(0, Uint8Array.of(2)))).toBe(C.BAD_STATUS);
    const failedWithZero = base().map((x, j) => (j === 0 || j === 5 ? Uint8Array.of(0) : x));
    expect(decodeError(failedWithZero)).toBe(C.BAD_STATUS);
  });

  it("BAD_NUMBER: a leading zero byte or more than 63 bits", () => {
    expect(decodeError(replace(1, Uint8Array.of(0)))).toBe(C.BAD_NUMBER);
    expect(decodeError(replace(4, Uint8Array.of(0, 1)))).toBe(C.BAD_NUMBER);
    expect(decodeError(replace(4, Uint8Array.of(0x80, 0, 0, 0, 0, 0, 0, 0)))).toBe(C.BAD_NUMBER);
  });

  it("BAD_FIELD_LENGTH: bloom, log address, topic", () => {
    expect(decodeError(replace(2, new Uint8Array(255)))).toBe(C.BAD_FIELD_LENGTH);
    expect(decodeError(replace(3, [logItem({...log, address: new Uint8Array(19)})]))).toBe(C.BAD_FIELD_LENGTH);
    expect(decodeError(replace(3, [logItem({...log, topics: [new Uint8Array(31)]})]))).toBe(C.BAD_FIELD_LENGTH);
  });

  it("BAD_LOG: a log without three fields", () => {
    expect(decodeError(replace(3, [[log.address, log.topics]]))).toBe(C.BAD_LOG);
  });
});
