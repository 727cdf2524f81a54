import {describe, expect, it} from "vitest";
import {HeaderErrorCode, minGasPriceRule} from "../../src/index.ts";
import {codeOf, errorOf, headerAndParent, regtest, withValues} from "../helpers.ts";

describe("minGasPriceRule", () => {
  const {header, parent} = headerAndParent();
  const center = parent.minimumGasPrice;
  const delta = center / 100n;
  const at = (minimumGasPrice: bigint) => withValues(header, {minimumGasPrice});

  it("accepts the real header and both band edges", () => {
    expect(delta).toBeGreaterThan(0n);
    expect(codeOf(() => minGasPriceRule(header, parent))).toBeUndefined();
    expect(codeOf(() => minGasPriceRule(at(center + delta), parent))).toBeUndefined();
    expect(codeOf(() => minGasPriceRule(at(center - delta), parent))).toBeUndefined();
  });

  it("rejects one above and one below the band", () => {
    const err = errorOf(() => minGasPriceRule(at(center + delta + 1n), parent));
    expect(err.code).toBe(HeaderErrorCode.MIN_GAS_PRICE_OUT_OF_BAND);
    expect(err.type).toMatchObject({min: center - delta, max: center + delta, actual: center + delta + 1n});
    expect(codeOf(() => minGasPriceRule(at(center - delta - 1n), parent))).toBe(
      HeaderErrorCode.MIN_GAS_PRICE_OUT_OF_BAND,
    );
  });

  it("allows a step of 1 when 1% rounds to 0, clamping the lower bound at 0", () => {
    const zeroParent = withValues(parent, {minimumGasPrice: 0n}, regtest);
    const child = (minimumGasPrice: bigint) => withValues(header, {minimumGasPrice}, regtest);
    expect(codeOf(() => minGasPriceRule(child(0n), zeroParent))).toBeUndefined();
    expect(codeOf(() => minGasPriceRule(child(1n), zeroParent))).toBeUndefined();
    expect(codeOf(() => minGasPriceRule(child(2n), zeroParent))).toBe(HeaderErrorCode.MIN_GAS_PRICE_OUT_OF_BAND);
    const smallParent = withValues(parent, {minimumGasPrice: 99n}, regtest);
    expect(codeOf(() => minGasPriceRule(child(98n), smallParent))).toBeUndefined();
    expect(codeOf(() => minGasPriceRule(child(97n), smallParent))).toBe(HeaderErrorCode.MIN_GAS_PRICE_OUT_OF_BAND);
  });
});
