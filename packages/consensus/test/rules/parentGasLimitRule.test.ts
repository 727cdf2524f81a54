import {describe, expect, it} from "vitest";
import {HeaderErrorCode, parentGasLimitRule} from "../../src/index.ts";
import {codeOf, errorOf, headerAndParent, mainnet, withValues} from "../helpers.ts";

describe("parentGasLimitRule", () => {
  const {header, parent} = headerAndParent();
  const min = (parent.gasLimit * 1023n) / 1024n;
  const max = (parent.gasLimit * 1025n) / 1024n;
  const at = (gasLimit: bigint) => withValues(header, {gasLimit});

  it("accepts the real header and both band edges", () => {
    expect(codeOf(() => parentGasLimitRule(header, parent, mainnet))).toBeUndefined();
    expect(codeOf(() => parentGasLimitRule(at(min), parent, mainnet))).toBeUndefined();
    expect(codeOf(() => parentGasLimitRule(at(max), parent, mainnet))).toBeUndefined();
  });

  it("rejects one above and one below the band", () => {
    const err = errorOf(() => parentGasLimitRule(at(max + 1n), parent, mainnet));
    expect(err.code).toBe(HeaderErrorCode.GAS_LIMIT_OUT_OF_BAND);
    expect(err.type).toMatchObject({min, max, actual: max + 1n});
    expect(codeOf(() => parentGasLimitRule(at(min - 1n), parent, mainnet))).toBe(HeaderErrorCode.GAS_LIMIT_OUT_OF_BAND);
  });
});
