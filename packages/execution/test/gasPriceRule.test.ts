/**
 * The transaction gas-price rule that block import (chain) and execution both apply
 * (`gasPriceViolation`): at least the block's minimumGasPrice, and from RSKIP-252 with a
 * minimumGasPrice above 0 at most 100 × it.
 */
import {describe, expect, it} from "vitest";
import {GAS_PRICE_CAP_MULTIPLIER, gasPriceViolation, TransactionInvalidCode} from "../src/index.ts";

const mgp = 10n;

describe("gasPriceViolation", () => {
  it("allows the minimum, the cap and anything between", () => {
    expect(GAS_PRICE_CAP_MULTIPLIER).toBe(100n);
    for (const gasPrice of [mgp, 50n * mgp, 100n * mgp]) {
      expect(gasPriceViolation(gasPrice, mgp, true)).toBeUndefined();
    }
  });

  it("a price below the block's minimumGasPrice is GAS_PRICE_BELOW_MINIMUM, with or without the cap", () => {
    for (const capActive of [false, true]) {
      expect(gasPriceViolation(mgp - 1n, mgp, capActive)).toEqual({
        code: TransactionInvalidCode.GAS_PRICE_BELOW_MINIMUM,
        gasPrice: mgp - 1n,
        minimumGasPrice: mgp,
      });
    }
  });

  it("a price above 100 × minimumGasPrice is GAS_PRICE_ABOVE_CAP once RSKIP-252 is active", () => {
    expect(gasPriceViolation(100n * mgp + 1n, mgp, true)).toEqual({
      code: TransactionInvalidCode.GAS_PRICE_ABOVE_CAP,
      gasPrice: 100n * mgp + 1n,
      cap: 100n * mgp,
    });
    expect(gasPriceViolation(100n * mgp + 1n, mgp, false)).toBeUndefined();
  });

  it("a minimumGasPrice of 0 has no cap", () => {
    expect(gasPriceViolation(0n, 0n, true)).toBeUndefined();
    expect(gasPriceViolation(10n ** 30n, 0n, true)).toBeUndefined();
  });
});
