import {describe, expect, it} from "vitest";
import {difficultyRule, HeaderErrorCode} from "../../src/index.ts";
import {codeOf, errorOf, headerAndParent, mainnet, mainnetHeaders, withValues} from "../helpers.ts";

describe("difficultyRule", () => {
  const {header, parent} = headerAndParent();

  it("accepts the real header", () => {
    expect(codeOf(() => difficultyRule(header, parent, mainnet))).toBeUndefined();
  });

  it("rejects a difficulty one off", () => {
    const forged = withValues(header, {difficulty: header.difficulty + 1n});
    const err = errorOf(() => difficultyRule(forged, parent, mainnet));
    expect(err.code).toBe(HeaderErrorCode.BAD_DIFFICULTY);
    expect(err.type).toMatchObject({expected: header.difficulty, actual: header.difficulty + 1n});
  });

  it("rejects a changed uncle count, which moves the target", () => {
    // A real block whose difficulty went down (slow block): enough extra uncles move the target past it.
    const headers = mainnetHeaders();
    const i = headers.findIndex((h, k) => k > 0 && h.difficulty < headers[k - 1]!.difficulty);
    const slow = headers[i]!;
    const forged = withValues(slow, {uncleCount: slow.uncleCount + 20});
    expect(codeOf(() => difficultyRule(slow, headers[i - 1]!, mainnet))).toBeUndefined();
    expect(codeOf(() => difficultyRule(forged, headers[i - 1]!, mainnet))).toBe(HeaderErrorCode.BAD_DIFFICULTY);
  });

  it("rejects a changed timestamp that crosses the target", () => {
    const forged = withValues(header, {timestamp: parent.timestamp + 200});
    expect(codeOf(() => difficultyRule(forged, parent, mainnet))).toBe(HeaderErrorCode.BAD_DIFFICULTY);
  });
});
