import {describe, expect, it} from "vitest";
import {HeaderErrorCode, parentTimestampRule} from "../../src/index.ts";
import {codeOf, headerAndParent, mainnet, regtest, withValues} from "../helpers.ts";

describe("parentTimestampRule", () => {
  const {header, parent} = headerAndParent();

  it("accepts the real header", () => {
    expect(codeOf(() => parentTimestampRule(header, parent, mainnet))).toBeUndefined();
  });

  it("rejects a timestamp equal to or before the parent's", () => {
    const equal = withValues(header, {timestamp: parent.timestamp});
    expect(codeOf(() => parentTimestampRule(equal, parent, mainnet))).toBe(HeaderErrorCode.TIMESTAMP_NOT_AFTER_PARENT);
    const before = withValues(header, {timestamp: parent.timestamp - 1});
    expect(codeOf(() => parentTimestampRule(before, parent, mainnet))).toBe(HeaderErrorCode.TIMESTAMP_NOT_AFTER_PARENT);
  });

  it("is disabled on regtest", () => {
    const equal = withValues(header, {timestamp: parent.timestamp});
    expect(codeOf(() => parentTimestampRule(equal, parent, regtest))).toBeUndefined();
  });
});
