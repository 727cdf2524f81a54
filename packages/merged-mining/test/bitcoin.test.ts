import {readJsonVector} from "@xchain/test-utils";
import {bytesToHex, hexToBytes, reverseBytes} from "@xchain/utils";
import fc from "fast-check";
import {describe, expect, it} from "vitest";
import {
  BitcoinDecodeError,
  BitcoinDecodeErrorCode,
  bitcoinTxid,
  MergedMiningError,
  MergedMiningErrorCode,
  parseBitcoinBlock,
  parseBitcoinHeader,
  parseBitcoinTransaction,
  serializeBitcoinBlock,
  serializeBitcoinHeader,
  serializeBitcoinTransaction,
} from "../src/index.ts";
import {expectCode, samples} from "./fixtures.ts";

const coinbaseVector = readJsonVector<{rawSegwit: string; legacySerialization: string; txid: string}>(
  "coinbase-compression-vector.json",
);

describe("Bitcoin headers", () => {
  it("parse and re-serialize every sample header", () => {
    for (const s of samples) {
      const bytes = hexToBytes(s.bitcoinHeader);
      const header = parseBitcoinHeader(bytes);
      expect(serializeBitcoinHeader(header)).toEqual(bytes);
    }
  });

  it("decode the fields of block 1,900,456's Bitcoin header", () => {
    const h = parseBitcoinHeader(hexToBytes(samples.find((s) => s.number === 1_900_456)!.bitcoinHeader));
    expect(h.version).toBeGreaterThan(0);
    expect(h.merkleRoot).toHaveLength(32);
    expect(h.time).toBeGreaterThan(1_500_000_000);
  });

  it("must be exactly 80 bytes", () => {
    expectCode(() => parseBitcoinHeader(new Uint8Array(79)), MergedMiningErrorCode.BTC_HEADER_INVALID);
    expectCode(() => parseBitcoinHeader(new Uint8Array(81)), MergedMiningErrorCode.BTC_HEADER_INVALID);
  });
});

describe("Bitcoin transactions", () => {
  it("parse the segwit and legacy forms of the AntPool coinbase", () => {
    const segwit = parseBitcoinTransaction(hexToBytes(coinbaseVector.rawSegwit));
    const legacy = parseBitcoinTransaction(hexToBytes(coinbaseVector.legacySerialization));
    expect(segwit.hasWitness).toBe(true);
    expect(legacy.hasWitness).toBe(false);
    expect(bytesToHex(segwit.raw)).toBe(coinbaseVector.rawSegwit);
    expect(bytesToHex(legacy.legacy)).toBe(coinbaseVector.legacySerialization);
    expect(segwit.outputs).toHaveLength(5);
    expect(segwit.outputs.map((o) => o.value)).toEqual(legacy.outputs.map((o) => o.value));
    expect(bytesToHex(reverseBytes(bitcoinTxid(legacy)))).toBe(coinbaseVector.txid);
    expect(bytesToHex(serializeBitcoinTransaction(segwit))).toBe(coinbaseVector.legacySerialization);
  });

  it("reject unknown segwit flags, truncation and trailing bytes", () => {
    const legacy = hexToBytes(coinbaseVector.legacySerialization);
    const segwit = hexToBytes(coinbaseVector.rawSegwit);
    const badFlags = segwit.slice();
    badFlags[5] = 0x03;
    expectCode(() => parseBitcoinTransaction(badFlags), BitcoinDecodeErrorCode.UNKNOWN_TX_FLAGS);
    expectCode(() => parseBitcoinTransaction(legacy.subarray(0, legacy.length - 1)), BitcoinDecodeErrorCode.TRUNCATED);
    const trailing = new Uint8Array(legacy.length + 1);
    trailing.set(legacy);
    expectCode(() => parseBitcoinTransaction(trailing), BitcoinDecodeErrorCode.TRAILING_BYTES);
  });

  it("bound counts by the bytes left", () => {
    // Version, then 0xfe + 2^32-1 inputs.
    expectCode(
      () => parseBitcoinTransaction(hexToBytes("01000000feffffffff00")),
      BitcoinDecodeErrorCode.COUNT_TOO_LARGE,
    );
  });
});

const header = hexToBytes(samples[0]!.bitcoinHeader);
const txs = [hexToBytes(coinbaseVector.rawSegwit), hexToBytes(coinbaseVector.legacySerialization)];

describe("Bitcoin blocks", () => {
  it("parse a header, a segwit and a legacy transaction", () => {
    const bytes = serializeBitcoinBlock(header, txs);
    const block = parseBitcoinBlock(bytes);
    expect(block.headerBytes).toEqual(header);
    expect(block.transactions.map((t) => bytesToHex(t.raw))).toEqual(txs.map(bytesToHex));
    expect(block.transactions.map((t) => bytesToHex(t.legacy))).toEqual([
      coinbaseVector.legacySerialization,
      coinbaseVector.legacySerialization,
    ]);
  });

  it("use CompactSize transaction counts beyond one byte", () => {
    const legacy = hexToBytes(coinbaseVector.legacySerialization);
    const block = parseBitcoinBlock(serializeBitcoinBlock(header, Array(300).fill(legacy)));
    expect(block.transactions).toHaveLength(300);
  });

  it("reject truncation and trailing bytes", () => {
    const bytes = serializeBitcoinBlock(header, txs);
    expectCode(() => parseBitcoinBlock(bytes.subarray(0, 79)), BitcoinDecodeErrorCode.TRUNCATED);
    expectCode(() => parseBitcoinBlock(bytes.subarray(0, bytes.length - 2)), BitcoinDecodeErrorCode.TRUNCATED);
    const trailing = new Uint8Array(bytes.length + 3);
    trailing.set(bytes);
    expectCode(() => parseBitcoinBlock(trailing), BitcoinDecodeErrorCode.TRAILING_BYTES);
  });
});

describe("random bytes", () => {
  const onlyTyped = (fn: () => unknown, ...types: (new (...a: never[]) => Error)[]) => {
    try {
      fn();
    } catch (e) {
      expect(
        types.some((t) => e instanceof t),
        String(e),
      ).toBe(true);
    }
  };

  it("parseBitcoinHeader throws only MergedMiningError", () => {
    fc.assert(
      fc.property(fc.uint8Array({maxLength: 120}), (b) => onlyTyped(() => parseBitcoinHeader(b), MergedMiningError)),
    );
  });

  it("the block and transaction parsers throw only BitcoinDecodeError", () => {
    fc.assert(
      fc.property(fc.uint8Array({maxLength: 400}), (b) => {
        onlyTyped(() => parseBitcoinBlock(b), BitcoinDecodeError);
        onlyTyped(() => parseBitcoinTransaction(b), BitcoinDecodeError);
      }),
      {numRuns: 2000},
    );
  });

  it("the parsers survive random changes to a valid block", () => {
    const valid = serializeBitcoinBlock(header, txs);
    fc.assert(
      fc.property(fc.nat(valid.length - 1), fc.integer({min: 1, max: 255}), fc.nat(valid.length), (at, mask, cut) => {
        const mutated = valid.slice(0, Math.max(cut, at + 1));
        mutated[at] = (mutated[at] as number) ^ mask;
        onlyTyped(() => parseBitcoinBlock(mutated), BitcoinDecodeError);
      }),
      {numRuns: 2000},
    );
  });
});
