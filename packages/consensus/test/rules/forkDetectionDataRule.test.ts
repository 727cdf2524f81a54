import {cpvHeights, RSK_TAG} from "@xchain/merged-mining";
import type {BlockHeader} from "@xchain/primitives";
import {readJsonVector} from "@xchain/test-utils";
import {bytesToHex, concatBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {checkForkDetectionData, type HeaderAncestry, HeaderErrorCode} from "../../src/index.ts";
import {codeOf, errorOf, headerErrorTypeOf, mainnet, mainnetHeaders, regtest, withValues} from "../helpers.ts";

const headers = mainnetHeaders();
const byNumber = new Map(headers.map((h) => [h.number, h]));

/** The ancestry of `header` within the file: only headers before it. */
function ancestryOf(header: BlockHeader, override?: BlockHeader): HeaderAncestry {
  return {
    headerByNumber: (n) => {
      if (n >= header.number) return undefined;
      return override?.number === n ? override : byNumber.get(n);
    },
  };
}

describe("checkForkDetectionData on the real mainnet headers", () => {
  it("checks and accepts every header from the 450th on, with its 449 ancestors in the file", () => {
    for (const [i, h] of headers.entries()) {
      const result = checkForkDetectionData(h, ancestryOf(h), mainnet);
      if (i >= 449) expect(result, `block ${h.number}`).toEqual({checked: true});
      else expect(result, `block ${h.number}`).toMatchObject({checked: false, reason: "ancestor-missing"});
    }
  });

  it("reports the first missing ancestor instead of failing", () => {
    const first = headers[0]!;
    expect(checkForkDetectionData(first, ancestryOf(first), mainnet)).toEqual({
      checked: false,
      reason: "ancestor-missing",
      missingNumber: first.number - 1,
    });
  });

  const header = headers[600]!;

  it("rejects data that no longer matches a changed uncle count of the parent", () => {
    const parent = byNumber.get(header.number - 1)!;
    const changed = withValues(parent, {uncleCount: parent.uncleCount + 1});
    const {expected, actual} = headerErrorTypeOf(
      () => checkForkDetectionData(header, ancestryOf(header, changed), mainnet),
      HeaderErrorCode.FORK_DETECTION_DATA_MISMATCH,
    );
    expect(expected[7]).toBe((actual![7] as number) + 1);
  });

  it("rejects data that no longer matches a CPV block's Bitcoin header", () => {
    const cpv = byNumber.get(cpvHeights(header.number)[3]!)!;
    const bitcoinHeader = Uint8Array.from(cpv.mergedMining!.bitcoinHeader);
    bitcoinHeader[0] = (bitcoinHeader[0] as number) ^ 1;
    const changed = withValues(cpv, {mergedMining: {...cpv.mergedMining!, bitcoinHeader}});
    expect(codeOf(() => checkForkDetectionData(header, ancestryOf(header, changed), mainnet))).toBe(
      HeaderErrorCode.FORK_DETECTION_DATA_MISMATCH,
    );
  });

  it("does not apply before RSKIP-110 (mainnet 1,591,000)", () => {
    const early = withValues(header, {number: 1_590_999});
    expect(checkForkDetectionData(early, ancestryOf(early), mainnet)).toEqual({checked: false, reason: "inactive"});
  });
});

describe("checkForkDetectionData reads the ancestors the vectors name", () => {
  const {vectors} = readJsonVector<{vectors: {blockNumber: number; cpvHeights: number[]; forkDetectionData: string}[]}>(
    "fork-detection-data-vectors.json",
  );
  // The vector blocks lie just after the file's range: stand any real header in for each ancestor.
  const stand = headers[0]!;
  for (const v of vectors) {
    it(`block ${v.blockNumber}: the 449 ancestors, then the vector's CPV heights`, () => {
      const requested: number[] = [];
      const ancestry: HeaderAncestry = {
        headerByNumber: (n) => {
          requested.push(n);
          return stand;
        },
      };
      const probe = withValues(stand, {number: v.blockNumber});
      const {expected} = headerErrorTypeOf(
        () => checkForkDetectionData(probe, ancestry, mainnet),
        HeaderErrorCode.FORK_DETECTION_DATA_MISMATCH,
      );
      const view = Array.from({length: 449}, (_, i) => v.blockNumber - 1 - i);
      expect(requested).toEqual([...view, ...v.cpvHeights]);
      expect(bytesToHex(expected.subarray(8))).toBe(v.forkDetectionData.slice(16));
      expect(expected[7]).toBe(Math.min(255, 32 * stand.uncleCount));
    });
  }
});

describe("checkForkDetectionData where RSKIP-110 is active from genesis (regtest)", () => {
  const base = withValues(headers[0]!, {number: 100, mergedMining: undefined}, regtest);
  const prefix = base.baseHashForMergedMining().subarray(0, 20);
  const rest = base.baseHashForMergedMining().subarray(20);
  const sealed = (committed: Uint8Array) =>
    base.withMergedMining(
      {
        bitcoinHeader: new Uint8Array(80),
        merkleProof: new Uint8Array(0),
        coinbase: concatBytes(new Uint8Array(40), RSK_TAG, committed),
      },
      regtest,
    );
  const none: HeaderAncestry = {headerByNumber: () => undefined};

  it("accepts a header below 449 that commits to its plain hash", () => {
    expect(checkForkDetectionData(sealed(concatBytes(prefix, rest)), none, regtest)).toEqual({checked: true});
    expect(checkForkDetectionData(base, none, regtest)).toEqual({checked: true});
  });

  it("rejects a header below 449 that commits to fork-detection data", () => {
    const fdd = new Uint8Array(12).fill(7);
    const err = errorOf(() => checkForkDetectionData(sealed(concatBytes(prefix, fdd)), none, regtest));
    expect(err.code).toBe(HeaderErrorCode.FORK_DETECTION_DATA_UNEXPECTED);
    expect(err.type).toMatchObject({actual: fdd});
  });

  it("leaves a tag for another header to proof of work", () => {
    const other = new Uint8Array(32).fill(9);
    expect(checkForkDetectionData(sealed(other), none, regtest)).toEqual({checked: true});
  });

  it("does not compare block 449 (rskj's boundary)", () => {
    const at449 = withValues(base, {number: 449}, regtest);
    expect(checkForkDetectionData(at449, none, regtest)).toEqual({checked: false, reason: "boundary"});
  });

  it("compares from block 450, reporting the missing parent first", () => {
    const at450 = withValues(base, {number: 450}, regtest);
    expect(checkForkDetectionData(at450, none, regtest)).toEqual({
      checked: false,
      reason: "ancestor-missing",
      missingNumber: 449,
    });
  });
});
