import {describe, expect, it} from "vitest";
import {gasLimitRule, HeaderErrorCode} from "../../src/index.ts";
import {codeOf, headerAndParent, mainnet, withValues} from "../helpers.ts";

describe("gasLimitRule", () => {
  const {header} = headerAndParent();

  it("accepts the real header and exactly 3,000,000", () => {
    expect(codeOf(() => gasLimitRule(header, mainnet))).toBeUndefined();
    expect(
      codeOf(() => gasLimitRule(withValues(header, {gasLimit: 3_000_000n, gasUsed: 0n}), mainnet)),
    ).toBeUndefined();
  });

  it("rejects a gas limit below 3,000,000", () => {
    const forged = withValues(header, {gasLimit: 2_999_999n, gasUsed: 0n});
    expect(codeOf(() => gasLimitRule(forged, mainnet))).toBe(HeaderErrorCode.GAS_LIMIT_BELOW_MINIMUM);
  });
});
