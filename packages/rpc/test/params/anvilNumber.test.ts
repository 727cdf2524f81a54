/** `anvilUint`: the numbers anvil's controls read (foundry's `deserialize_number`). */
import {describe, expect, it} from "vitest";
import {anvilUint} from "../../src/params/anvilNumber.ts";

describe("anvilUint", () => {
  it("reads a QUANTITY, hex with leading zeros, a decimal string and a JSON integer", () => {
    expect(anvilUint("0x3e8", "p")).toBe(1000n);
    expect(anvilUint(`0x${"0".repeat(61)}3e8`, "p")).toBe(1000n);
    expect(anvilUint("1000", "p")).toBe(1000n);
    expect(anvilUint(1000, "p")).toBe(1000n);
    expect(anvilUint(`0x${"f".repeat(64)}`, "p")).toBe(2n ** 256n - 1n);
  });

  it("refuses what is no unsigned 256-bit integer, naming the parameter", () => {
    expect(() => anvilUint("0x", "params[1]")).toThrow(
      "params[1]: expected 0x and 1 to 64 hex digits, or decimal digits",
    );
    expect(() => anvilUint(`0x1${"0".repeat(64)}`, "p")).toThrow(/1 to 64 hex digits/);
    expect(() => anvilUint((2n ** 256n).toString(), "p")).toThrow("p: larger than 2^256 - 1");
    expect(() => anvilUint(-1, "p")).toThrow("p: expected a non-negative integer");
    expect(() => anvilUint(1.5, "p")).toThrow("p: expected a non-negative integer");
    expect(() => anvilUint("12ab", "p")).toThrow(/hex digits, or decimal digits/);
    expect(() => anvilUint(true, "p")).toThrow("p: expected a number or a string, got boolean");
  });
});
