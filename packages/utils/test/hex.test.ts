import fc from "fast-check";
import {describe, expect, it} from "vitest";
import {
  HexError,
  HexErrorCode,
  parseData,
  parseQuantity,
  parseQuantityNumber,
  toData,
  toQuantity,
} from "../src/index.ts";

function errorOf(parse: () => unknown): HexError {
  try {
    parse();
  } catch (e) {
    expect(e).toBeInstanceOf(HexError);
    return e as HexError;
  }
  throw new Error("parsed without error");
}

describe("parseQuantity", () => {
  it("accepts 0x0, minimal numbers and upper-case digits", () => {
    expect(parseQuantity("0x0", "n")).toBe(0n);
    expect(parseQuantity("0x1", "n")).toBe(1n);
    expect(parseQuantity("0x400", "n")).toBe(1024n);
    expect(parseQuantity("0xABCdef", "n")).toBe(0xabcdefn);
  });

  it("every error code, with the argument named", () => {
    const C = HexErrorCode;
    expect(errorOf(() => parseQuantity(1, "blockNumber")).type).toEqual({
      code: C.NOT_A_STRING,
      arg: "blockNumber",
      actualType: "number",
    });
    expect(errorOf(() => parseQuantity(null, "a")).type).toMatchObject({code: C.NOT_A_STRING, actualType: "null"});
    expect(errorOf(() => parseQuantity(["0x1"], "a")).type).toMatchObject({code: C.NOT_A_STRING, actualType: "array"});
    expect(errorOf(() => parseQuantity(1n, "a")).type).toMatchObject({code: C.NOT_A_STRING, actualType: "bigint"});
    expect(errorOf(() => parseQuantity("1f", "a")).code).toBe(C.MISSING_PREFIX);
    expect(errorOf(() => parseQuantity("0X1f", "a")).code).toBe(C.MISSING_PREFIX);
    expect(errorOf(() => parseQuantity("", "a")).code).toBe(C.MISSING_PREFIX);
    expect(errorOf(() => parseQuantity("0x", "a")).code).toBe(C.EMPTY_QUANTITY);
    expect(errorOf(() => parseQuantity("0x00", "a")).code).toBe(C.LEADING_ZERO);
    expect(errorOf(() => parseQuantity("0x01", "a")).code).toBe(C.LEADING_ZERO);
    expect(errorOf(() => parseQuantity("0xg", "a")).code).toBe(C.INVALID_CHARACTER);
    expect(errorOf(() => parseQuantity("0x-1", "a")).code).toBe(C.INVALID_CHARACTER);
    expect(errorOf(() => parseQuantity("0x 1", "a")).code).toBe(C.INVALID_CHARACTER);
    expect(errorOf(() => parseQuantity(`0x1${"0".repeat(64)}`, "a")).type).toEqual({
      code: C.TOO_LARGE,
      arg: "a",
      maxBits: 256,
    });
  });

  it("messages name the argument", () => {
    expect(errorOf(() => parseQuantity("0x00", "gasPrice")).message).toContain("gasPrice");
    expect(errorOf(() => parseData("0x0", "input")).message).toContain("input");
  });

  it("honours maxBits at the boundary", () => {
    expect(parseQuantity(`0x${"f".repeat(64)}`, "a")).toBe(2n ** 256n - 1n);
    expect(parseQuantity("0xff", "a", 8)).toBe(255n);
    expect(errorOf(() => parseQuantity("0x100", "a", 8)).code).toBe(HexErrorCode.TOO_LARGE);
  });

  it("parseQuantityNumber stops at 2^53 - 1", () => {
    expect(parseQuantityNumber("0x1fffffffffffff", "n")).toBe(Number.MAX_SAFE_INTEGER);
    expect(errorOf(() => parseQuantityNumber("0x20000000000000", "n")).code).toBe(HexErrorCode.TOO_LARGE);
  });

  it("property: parseQuantity(toQuantity(x)) == x", () => {
    fc.assert(
      fc.property(fc.bigInt({min: 0n, max: 2n ** 256n - 1n}), (x) => {
        expect(parseQuantity(toQuantity(x), "x")).toBe(x);
      }),
    );
  });
});

describe("parseData", () => {
  it("accepts 0x as empty, any case, and exact lengths", () => {
    expect(parseData("0x", "d")).toEqual(new Uint8Array(0));
    expect(parseData("0x00", "d")).toEqual(Uint8Array.of(0));
    expect(parseData("0xAbCd", "d")).toEqual(Uint8Array.of(0xab, 0xcd));
    expect(parseData(`0x${"11".repeat(20)}`, "address", 20)).toHaveLength(20);
    expect(parseData(`0x${"22".repeat(32)}`, "hash", 32)).toHaveLength(32);
    expect(parseData(`0x${"33".repeat(256)}`, "bloom", 256)).toHaveLength(256);
    expect(parseData("0x", "d", 0)).toEqual(new Uint8Array(0));
  });

  it("every error code", () => {
    const C = HexErrorCode;
    expect(errorOf(() => parseData(undefined, "d")).type).toMatchObject({
      code: C.NOT_A_STRING,
      actualType: "undefined",
    });
    expect(errorOf(() => parseData({}, "d")).type).toMatchObject({code: C.NOT_A_STRING, actualType: "object"});
    expect(errorOf(() => parseData("abcd", "d")).code).toBe(C.MISSING_PREFIX);
    expect(errorOf(() => parseData("0x0", "d")).type).toEqual({code: C.ODD_LENGTH, arg: "d", digits: 1});
    expect(errorOf(() => parseData("0xabc", "d")).code).toBe(C.ODD_LENGTH);
    expect(errorOf(() => parseData("0xzz", "d")).code).toBe(C.INVALID_CHARACTER);
    expect(errorOf(() => parseData("0x0g", "d")).code).toBe(C.INVALID_CHARACTER);
  });

  it("WRONG_LENGTH for DATA20, DATA32 and DATA256 one byte off", () => {
    for (const length of [20, 32, 256]) {
      for (const actual of [length - 1, length + 1]) {
        const error = errorOf(() => parseData(`0x${"ab".repeat(actual)}`, "x", length));
        expect(error.type).toEqual({
          code: HexErrorCode.WRONG_LENGTH,
          arg: "x",
          expectedBytes: length,
          actualBytes: actual,
        });
      }
    }
    expect(errorOf(() => parseData("0x", "x", 20)).code).toBe(HexErrorCode.WRONG_LENGTH);
  });

  it("property: parseData(toData(x)) == x", () => {
    fc.assert(
      fc.property(fc.uint8Array({maxLength: 100}), (bytes) => {
        expect(parseData(toData(bytes), "x", bytes.length)).toEqual(bytes);
      }),
    );
  });
});

describe("toQuantity and toData", () => {
  it("write 0x0, lower-case digits, no leading zeros", () => {
    expect(toQuantity(0)).toBe("0x0");
    expect(toQuantity(0n)).toBe("0x0");
    expect(toQuantity(255)).toBe("0xff");
    expect(toQuantity(2n ** 64n)).toBe("0x10000000000000000");
    expect(toData(new Uint8Array(0))).toBe("0x");
    expect(toData(Uint8Array.of(0, 0xab))).toBe("0x00ab");
  });

  it("refuse negative quantities", () => {
    expect(() => toQuantity(-1)).toThrow(RangeError);
    expect(() => toQuantity(-1n)).toThrow(RangeError);
  });
});
