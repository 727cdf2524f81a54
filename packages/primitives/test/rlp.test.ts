import {bytesToHex, hexToBytes} from "@xchain/utils";
import fc from "fast-check";
import {describe, expect, it} from "vitest";
import {
  asBytes,
  asList,
  decodeRlp,
  decodeRlpList,
  encodeCoinNonNullZero,
  encodeCoinNullZero,
  encodeRlp,
  encodeSigned,
  encodeUnsigned,
  MAX_RLP_DEPTH,
  RlpError,
  RlpErrorCode,
  type RlpItem,
} from "../src/index.ts";

function errorOf(hex: string): RlpErrorCode {
  try {
    decodeRlp(hexToBytes(hex));
  } catch (e) {
    expect(e).toBeInstanceOf(RlpError);
    return (e as RlpError).code;
  }
  throw new Error(`${hex} decoded without error`);
}

function nested(depth: number): RlpItem {
  let item: RlpItem = [];
  for (let i = 1; i < depth; i++) item = [item];
  return item;
}

const rlpItem: fc.Arbitrary<RlpItem> = fc.letrec<{item: RlpItem}>((tie) => ({
  item: fc.oneof({depthSize: "small"}, fc.uint8Array({maxLength: 80}), fc.array(tie("item"), {maxLength: 8})),
})).item;

describe("RLP encoding", () => {
  const cases: [RlpItem, string][] = [
    [new Uint8Array(0), "80"],
    [Uint8Array.of(0), "00"],
    [Uint8Array.of(0x7f), "7f"],
    [Uint8Array.of(0x80), "8180"],
    [new Uint8Array(55).fill(1), `b7${"01".repeat(55)}`],
    [new Uint8Array(56).fill(1), `b838${"01".repeat(56)}`],
    [new Uint8Array(1024).fill(2), `b90400${"02".repeat(1024)}`],
    [[], "c0"],
    [[[], [[]]], "c3c0c1c0"],
    [Array.from({length: 56}, () => Uint8Array.of(1)), `f838${"01".repeat(56)}`],
  ];
  for (const [item, hex] of cases) {
    it(`${hex.slice(0, 12)}… round-trips`, () => {
      expect(bytesToHex(encodeRlp(item))).toBe(hex);
      expect(decodeRlp(hexToBytes(hex))).toEqual(item);
    });
  }

  it("property: decode(encode(x)) == x and encode(decode(b)) == b", () => {
    fc.assert(
      fc.property(rlpItem, (item) => {
        const bytes = encodeRlp(item);
        expect(decodeRlp(bytes)).toEqual(item);
        expect(encodeRlp(decodeRlp(bytes))).toEqual(bytes);
      }),
      {numRuns: 1000},
    );
  });

  it("keeps non-canonical number bytes as received (docs/protocol/encoding.md)", () => {
    expect(decodeRlp(hexToBytes("c3820098"))).toEqual([Uint8Array.of(0, 0x98)]);
  });
});

describe("RLP decoding rejects", () => {
  const C = RlpErrorCode;
  const cases: [string, string, RlpErrorCode][] = [
    ["empty input", "", C.EMPTY_INPUT],
    ["a single byte below 0x80 with a prefix", "8105", C.NON_CANONICAL_SINGLE_BYTE],
    ["0x00 with a prefix", "8100", C.NON_CANONICAL_SINGLE_BYTE],
    ["a long-form string length under 56", `b837${"01".repeat(55)}`, C.NON_CANONICAL_SIZE],
    ["a long-form list length under 56", "f801c0", C.NON_CANONICAL_SIZE],
    ["a string length with a leading zero", `b90038${"01".repeat(56)}`, C.NON_CANONICAL_SIZE],
    ["a list length with a leading zero", `f90038${"01".repeat(56)}`, C.NON_CANONICAL_SIZE],
    ["a short string cut short", "830102", C.TRUNCATED],
    ["a long string cut short", `b838${"01".repeat(55)}`, C.TRUNCATED],
    ["a missing length of length", "b9", C.TRUNCATED],
    ["a list cut short", "c30102", C.TRUNCATED],
    ["a child overrunning its list", "c2830102", C.TRUNCATED],
    ["a 2^56-byte length", "bf0100000000000000", C.TRUNCATED],
    ["an 8-byte list length", "ffffffffffffffffff", C.TRUNCATED],
    ["trailing bytes", "8001", C.TRAILING_BYTES],
    ["two lists", "c0c0", C.TRAILING_BYTES],
  ];
  for (const [name, hex, code] of cases) {
    it(`${name} with ${code}`, () => expect(errorOf(hex)).toBe(code));
  }

  it(`nesting beyond ${MAX_RLP_DEPTH} lists with TOO_DEEP`, () => {
    expect(decodeRlp(encodeRlp(nested(MAX_RLP_DEPTH)))).toEqual(nested(MAX_RLP_DEPTH));
    expect(errorOf(bytesToHex(encodeRlp(nested(MAX_RLP_DEPTH + 1))))).toBe(RlpErrorCode.TOO_DEEP);
  });

  it("the wrong kind with EXPECTED_LIST / EXPECTED_STRING naming the item", () => {
    expect(() => decodeRlpList(Uint8Array.of(0x80), "tx")).toThrow(/tx must be a list/);
    expect(() => asList(Uint8Array.of(1), "logs")).toThrow(expect.objectContaining({code: RlpErrorCode.EXPECTED_LIST}));
    expect(() => asBytes([], "nonce")).toThrow(expect.objectContaining({code: RlpErrorCode.EXPECTED_STRING}));
    expect(() => asBytes(undefined, "nonce")).toThrow(RlpError);
  });

  it("reports the offset of the fault", () => {
    try {
      decodeRlp(hexToBytes("c3c28105"));
      expect.unreachable();
    } catch (e) {
      expect((e as RlpError).type).toEqual({code: RlpErrorCode.NON_CANONICAL_SINGLE_BYTE, offset: 2});
    }
  });
});

describe("Rootstock number encodings (docs/protocol/encoding.md)", () => {
  it("write zero four ways", () => {
    expect(encodeRlp(encodeUnsigned(0n))).toEqual(Uint8Array.of(0x80));
    expect(encodeRlp(encodeSigned(0n))).toEqual(Uint8Array.of(0x00));
    expect(encodeRlp(encodeCoinNonNullZero(0n))).toEqual(Uint8Array.of(0x00));
    expect(encodeRlp(encodeCoinNullZero(0n))).toEqual(Uint8Array.of(0x80));
  });

  it("add a sign byte only in the signed form", () => {
    expect(bytesToHex(encodeSigned(0x989680n))).toBe("00989680");
    expect(bytesToHex(encodeUnsigned(0x989680n))).toBe("989680");
    expect(bytesToHex(encodeCoinNonNullZero(0x80n))).toBe("80");
  });
});
