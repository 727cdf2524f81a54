import {MergedMiningError, MergedMiningErrorCode, NONCE_OFFSET} from "@xchain/merged-mining";
import {describe, expect, it} from "vitest";
import {HeaderErrorCode, mergedMiningRule} from "../../src/index.ts";
import {codeOf, errorOf, headerAndParent, mainnet, withValues} from "../helpers.ts";

describe("mergedMiningRule", () => {
  const {header} = headerAndParent();
  const mm = header.mergedMining!;

  it("accepts the real header (RSKIP-92 proof, fork-detection data in the tag)", () => {
    expect(codeOf(() => mergedMiningRule(header, mainnet))).toBeUndefined();
  });

  it("propagates the MergedMiningError of a flipped nonce byte unchanged", () => {
    const bitcoinHeader = Uint8Array.from(mm.bitcoinHeader);
    bitcoinHeader[NONCE_OFFSET] = (bitcoinHeader[NONCE_OFFSET] as number) ^ 0x80;
    const err = errorOf(() => mergedMiningRule(withValues(header, {mergedMining: {...mm, bitcoinHeader}}), mainnet));
    expect(err).toBeInstanceOf(MergedMiningError);
    expect(err.code).toBe(MergedMiningErrorCode.POW_ABOVE_TARGET);
  });

  it("fails the tag check when a committed field changes (the hash for merged mining moves)", () => {
    const forged = withValues(header, {paidFees: header.paidFees + 1n});
    expect(codeOf(() => mergedMiningRule(forged, mainnet))).toBe(MergedMiningErrorCode.FORK_DETECTION_DATA_NOT_FOUND);
  });

  it("requires the merged-mining fields", () => {
    expect(codeOf(() => mergedMiningRule(withValues(header, {mergedMining: undefined}), mainnet))).toBe(
      HeaderErrorCode.MERGED_MINING_FIELDS_MISSING,
    );
  });
});
