import {HeaderField} from "@xchain/primitives";
import {describe, expect, it} from "vitest";
import {HeaderErrorCode, parentNumberRule} from "../../src/index.ts";
import {codeOf, headerAndParent, withRawField, withValues} from "../helpers.ts";

describe("parentNumberRule", () => {
  const {header, parent} = headerAndParent();

  it("accepts the real header", () => {
    expect(codeOf(() => parentNumberRule(header, parent))).toBeUndefined();
  });

  it("rejects a number that is not the parent's + 1", () => {
    expect(codeOf(() => parentNumberRule(withValues(header, {number: header.number + 1}), parent))).toBe(
      HeaderErrorCode.NUMBER_NOT_PARENT_PLUS_ONE,
    );
    expect(codeOf(() => parentNumberRule(header, header))).toBe(HeaderErrorCode.NUMBER_NOT_PARENT_PLUS_ONE);
  });

  it("rejects a parentHash that is not the parent's hash", () => {
    const parentHash = Uint8Array.from(header.parentHash);
    parentHash[31] = (parentHash[31] as number) ^ 1;
    const forged = withRawField(header, HeaderField.parentHash, parentHash);
    expect(codeOf(() => parentNumberRule(forged, parent))).toBe(HeaderErrorCode.PARENT_HASH_MISMATCH);
  });
});
