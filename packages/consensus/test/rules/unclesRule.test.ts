import {type BlockHeader, EMPTY_UNCLES_HASH} from "@xchain/primitives";
import {plainHeader} from "@xchain/test-utils";
import {bytesToHex, equalBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {
  type FamilyAncestor,
  HeaderError,
  HeaderErrorCode,
  type UncleHeaderRules,
  uncleHeaderRules,
  unclesRule,
} from "../../src/index.ts";
import {codeOf, errorOf, regtest} from "../helpers.ts";

const NO_RULES: UncleHeaderRules = {standalone: () => {}, againstParent: () => {}};

/** A regtest header with difficulty 1; `salt` tells siblings apart. */
function makeHeader(
  number: number,
  parent: BlockHeader | undefined,
  salt = 0,
  uncles: BlockHeader[] = [],
): BlockHeader {
  return plainHeader(number, parent ? parent.hash() : new Uint8Array(32), regtest, salt, uncles);
}

// Main chain B0..B9; S[k] is a sibling of B[k] (same parent B[k-1]); B9 included S7.
const main: BlockHeader[] = [makeHeader(0, undefined)];
const siblings: BlockHeader[] = [];
for (let k = 1; k <= 10; k++) {
  const parent = main[k - 1]!;
  siblings[k] = makeHeader(k, parent, 1);
  if (k <= 9) main[k] = makeHeader(k, parent, 0, k === 9 ? [siblings[7]!] : []);
}
const B = (k: number) => main[k]!;
const S = (k: number) => siblings[k]!;

function familyOf(number: number): FamilyAncestor[] {
  return main
    .filter((h) => h.number < number)
    .map((header) => ({header, uncleHashes: header.number === 9 ? [S(7).hash()] : []}));
}

/** Block 10 on B9 with these uncles (count and hash consistent unless overridden). */
function block10(uncles: BlockHeader[]): BlockHeader {
  return makeHeader(10, B(9), 0, uncles);
}

function check(uncles: BlockHeader[], rules = NO_RULES, block = block10(uncles)): string | undefined {
  return codeOf(() => unclesRule(block, uncles, familyOf(10), regtest, rules));
}

describe("unclesRule structure", () => {
  it("accepts no uncles with the empty-list hash", () => {
    const block = block10([]);
    expect(bytesToHex(block.unclesHash)).toBe(bytesToHex(EMPTY_UNCLES_HASH));
    expect(check([])).toBeUndefined();
  });

  it("accepts siblings of ancestors down to the generation limit", () => {
    expect(check([S(9)])).toBeUndefined();
    expect(check([S(9), S(8), S(4)])).toBeUndefined();
  });

  it("rejects an uncleCount that differs from the list", () => {
    const block = makeHeader(10, B(9), 0, [S(9), S(8)]);
    expect(check([S(9)], NO_RULES, block)).toBe(HeaderErrorCode.UNCLE_COUNT_MISMATCH);
  });

  it("rejects an unclesHash that differs from the list", () => {
    const block = block10([S(9)]);
    expect(check([S(8)], NO_RULES, block)).toBe(HeaderErrorCode.UNCLES_HASH_MISMATCH);
  });

  it("rejects more than 10 uncles", () => {
    const many = Array.from({length: 11}, (_, i) => makeHeader(9, B(8), 10 + i));
    const err = errorOf(() => unclesRule(block10(many), many, familyOf(10), regtest, NO_RULES));
    expect(err.code).toBe(HeaderErrorCode.TOO_MANY_UNCLES);
    expect(err.type).toMatchObject({limit: 10, actual: 11});
  });

  it("rejects an uncle at the block's own height or above", () => {
    expect(check([S(10)])).toBe(HeaderErrorCode.UNCLE_NOT_OLDER);
  });

  it("rejects an uncle whose parent is more than 7 generations back", () => {
    const err = errorOf(() => unclesRule(block10([S(3)]), [S(3)], familyOf(10), regtest, NO_RULES));
    expect(err.code).toBe(HeaderErrorCode.UNCLE_TOO_OLD);
    expect(err.type).toMatchObject({uncleIndex: 0, uncleNumber: 3, blockNumber: 10, generationLimit: 7});
  });

  it("rejects the same uncle twice", () => {
    const err = errorOf(() => unclesRule(block10([S(9), S(9)]), [S(9), S(9)], familyOf(10), regtest, NO_RULES));
    expect(err.code).toBe(HeaderErrorCode.UNCLE_DUPLICATE);
    expect(err.type).toMatchObject({uncleIndex: 1});
  });

  it("rejects an ancestor as uncle", () => {
    expect(check([B(8)])).toBe(HeaderErrorCode.UNCLE_IS_ANCESTOR);
  });

  it("rejects an uncle an ancestor already included", () => {
    expect(check([S(7)])).toBe(HeaderErrorCode.UNCLE_ALREADY_INCLUDED);
  });

  it("rejects an uncle whose parent is not an ancestor", () => {
    const nephew = makeHeader(9, S(8), 2);
    expect(check([nephew])).toBe(HeaderErrorCode.UNCLE_PARENT_UNKNOWN);
  });

  it("ignores ancestors the caller passes beyond the generation limit", () => {
    // S3's parent B2 is in the family list, but 8 generations back: too old, not merely unknown.
    expect(familyOf(10).some((a) => a.header.number === 2)).toBe(true);
    expect(check([S(3)])).toBe(HeaderErrorCode.UNCLE_TOO_OLD);
  });
});

describe("unclesRule per-uncle header rules", () => {
  it("validates each uncle on its own and against its own parent", () => {
    const calls: string[] = [];
    const rules: UncleHeaderRules = {
      standalone: (u) => calls.push(`standalone ${u.number}`),
      againstParent: (u, p) => calls.push(`parent ${u.number}<-${p.number} ${equalBytes(p.hash(), u.parentHash)}`),
    };
    expect(check([S(9), S(5)], rules)).toBeUndefined();
    expect(calls).toEqual(["standalone 9", "parent 9<-8 true", "standalone 5", "parent 5<-4 true"]);
  });

  it("reports a failing uncle header rule as UNCLE_INVALID with the rule's code", () => {
    const rules: UncleHeaderRules = {
      standalone: (u) => {
        if (u.number === 5)
          throw new HeaderError({code: HeaderErrorCode.GAS_USED_ABOVE_LIMIT, gasLimit: 1n, gasUsed: 2n});
      },
      againstParent: () => {},
    };
    const err = errorOf(() => unclesRule(block10([S(9), S(5)]), [S(9), S(5)], familyOf(10), regtest, rules));
    expect(err.code).toBe(HeaderErrorCode.UNCLE_INVALID);
    expect(err.type).toMatchObject({uncleIndex: 1, cause: HeaderErrorCode.GAS_USED_ABOVE_LIMIT});
  });

  it("with the real rules, rejects an unsealed uncle", () => {
    const rules = uncleHeaderRules(regtest, {nowSeconds: 0, ancestry: {headerByNumber: (n) => main[n]}});
    const err = errorOf(() => unclesRule(block10([S(9)]), [S(9)], familyOf(10), regtest, rules));
    expect(err.code).toBe(HeaderErrorCode.UNCLE_INVALID);
    expect(err.type).toMatchObject({cause: HeaderErrorCode.MERGED_MINING_FIELDS_MISSING});
  });

  it("with the real rules, runs the parent rules against the uncle's parent", () => {
    const rules = uncleHeaderRules(regtest, {nowSeconds: 0, ancestry: {headerByNumber: (n) => main[n]}});
    expect(codeOf(() => rules.againstParent(S(9), B(8)))).toBeUndefined();
    expect(codeOf(() => rules.againstParent(S(9), B(7)))).toBe(HeaderErrorCode.NUMBER_NOT_PARENT_PLUS_ONE);
  });
});
