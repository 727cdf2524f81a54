import {describe, expect, it} from "vitest";
import {gasUsedRule, HeaderErrorCode} from "../../src/index.ts";
import {codeOf, headerAndParent, withValues} from "../helpers.ts";

describe("gasUsedRule", () => {
  const {header} = headerAndParent();

  it("accepts the real header and gasUsed = gasLimit", () => {
    expect(codeOf(() => gasUsedRule(header))).toBeUndefined();
    expect(codeOf(() => gasUsedRule(withValues(header, {gasUsed: header.gasLimit})))).toBeUndefined();
  });

  it("rejects gasUsed above gasLimit", () => {
    const forged = withValues(header, {gasUsed: header.gasLimit + 1n});
    expect(codeOf(() => gasUsedRule(forged))).toBe(HeaderErrorCode.GAS_USED_ABOVE_LIMIT);
  });
});
