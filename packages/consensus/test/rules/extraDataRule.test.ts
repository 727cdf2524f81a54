import {describe, expect, it} from "vitest";
import {extraDataRule, HeaderErrorCode} from "../../src/index.ts";
import {codeOf, errorOf, headerAndParent, mainnet, withValues} from "../helpers.ts";

describe("extraDataRule", () => {
  const {header} = headerAndParent();

  it("accepts the real header and 32 bytes", () => {
    expect(codeOf(() => extraDataRule(header, mainnet))).toBeUndefined();
    expect(codeOf(() => extraDataRule(withValues(header, {extraData: new Uint8Array(32)}), mainnet))).toBeUndefined();
  });

  it("rejects 33 bytes", () => {
    const err = errorOf(() => extraDataRule(withValues(header, {extraData: new Uint8Array(33)}), mainnet));
    expect(err.code).toBe(HeaderErrorCode.EXTRA_DATA_TOO_LONG);
    expect(err.type).toMatchObject({maxBytes: 32, actualBytes: 33});
  });
});
