import {describe, expect, it} from "vitest";
import {HeaderErrorCode, ummRootRule} from "../../src/index.ts";
import {codeOf, errorOf, headerAndParent, mainnet, regtest, withValues} from "../helpers.ts";

describe("ummRootRule", () => {
  const {header} = headerAndParent();

  it("accepts the real header (empty ummRoot after RSKIP-UMM)", () => {
    expect(header.ummRoot).toEqual(new Uint8Array(0));
    expect(codeOf(() => ummRootRule(header, mainnet))).toBeUndefined();
  });

  it("rejects a header without ummRoot where RSKIP-UMM is active", () => {
    const err = errorOf(() => ummRootRule(withValues(header, {ummRoot: undefined}), mainnet));
    expect(err.code).toBe(HeaderErrorCode.UMM_ROOT_PRESENCE);
    expect(err.type).toMatchObject({expectedPresent: true, actualPresent: false});
  });

  it("rejects a header with ummRoot before RSKIP-UMM", () => {
    const early = withValues(header, {number: 2_392_699});
    expect(codeOf(() => ummRootRule(early, mainnet))).toBe(HeaderErrorCode.UMM_ROOT_PRESENCE);
    expect(codeOf(() => ummRootRule(withValues(early, {ummRoot: undefined}), mainnet))).toBeUndefined();
  });

  it("follows regtest's override (from block 1)", () => {
    expect(codeOf(() => ummRootRule(withValues(header, {number: 0}, regtest), regtest))).toBe(
      HeaderErrorCode.UMM_ROOT_PRESENCE,
    );
    expect(codeOf(() => ummRootRule(withValues(header, {number: 1}, regtest), regtest))).toBeUndefined();
  });
});
