import {BlockHeader} from "@xchain/primitives";
import {readJsonVector} from "@xchain/test-utils";
import {bytesToHex, hexToBytes, reverseBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {
  computeForkDetectionData,
  cpvHeights,
  FORK_DETECTION_UNCLE_WINDOW,
  forkDetectionAncestorHeights,
  forkDetectionDataFromBlockHashes,
  MergedMiningErrorCode,
  readForkDetectionData,
  sealedHashForMergedMining,
  unsealedHashForMergedMining,
} from "../src/index.ts";
import {expectCode, flipByte, loadMainnetHeaders, mainnetRules, samples} from "./fixtures.ts";

interface FddVector {
  blockNumber: number;
  cpvHeights: number[];
  cpvBitcoinBlockHashes_display: string[];
  unclesInLast32Blocks: number;
  forkDetectionData: string;
}

const {vectors} = readJsonVector<{vectors: FddVector[]}>("fork-detection-data-vectors.json");

describe("fork-detection-data-vectors.json", () => {
  for (const v of vectors) {
    it(`block ${v.blockNumber}`, () => {
      expect(cpvHeights(v.blockNumber)).toEqual(v.cpvHeights);
      const hashes = v.cpvBitcoinBlockHashes_display.map((h) => reverseBytes(hexToBytes(h)));
      const fdd = forkDetectionDataFromBlockHashes(v.blockNumber, hashes, v.unclesInLast32Blocks);
      expect(bytesToHex(fdd)).toBe(v.forkDetectionData);
    });
  }
});

describe("fork-detection data on the 1,060 mainnet headers", () => {
  const headers = loadMainnetHeaders();
  const first = headers[0]!.number;

  it("equals, from the 450th header on, the data computed from the headers before it", () => {
    let checked = 0;
    for (let i = 449; i < headers.length; i++) {
      const h = headers[i]!;
      const cpvHeaders = cpvHeights(h.number).map((n) => headers[n - first]!.mergedMining!.bitcoinHeader);
      let uncles = 0;
      for (let k = 1; k <= FORK_DETECTION_UNCLE_WINDOW; k++) uncles += headers[i - k]!.uncleCount;
      const expected = computeForkDetectionData(h.number, cpvHeaders, uncles);
      expect(bytesToHex(readForkDetectionData(h)!), `block ${h.number}`).toBe(bytesToHex(expected));
      checked++;
    }
    expect(checked).toBe(611);
  });

  it("unsealedHashForMergedMining of the unsealed header equals the sealed one's, from the ancestors it names", () => {
    for (const h of headers.slice(449, 460)) {
      const needed = new Set(forkDetectionAncestorHeights(h.number));
      const lookup = (n: number) => (needed.has(n) ? headers[n - first] : undefined);
      const unsealed = BlockHeader.fromValues({...h, mergedMining: undefined}, mainnetRules);
      expect(unsealedHashForMergedMining(unsealed, lookup, true)).toEqual(sealedHashForMergedMining(h, true));
      expect(unsealedHashForMergedMining(unsealed, lookup, false)).toEqual(h.baseHashForMergedMining());
      expect(() => unsealedHashForMergedMining(unsealed, () => undefined, true)).toThrow(RangeError);
    }
    expect(forkDetectionAncestorHeights(448)).toEqual([]);
  });
});

describe("readForkDetectionData and sealedHashForMergedMining", () => {
  const bySample = (n: number) =>
    BlockHeader.decode(hexToBytes(samples.find((s) => s.number === n)!.headerRlp), mainnetRules);

  it("reads the 12 bytes after the tag and prefix (worked example, docs/protocol/merged-mining.md §5)", () => {
    expect(bytesToHex(readForkDetectionData(bySample(1_900_456))!)).toBe("76b7a6776256a423001cffa8");
  });

  it("before RSKIP-110 the base hash is used as is", () => {
    const h = bySample(900_123);
    expect(sealedHashForMergedMining(h, false)).toEqual(h.baseHashForMergedMining());
  });

  it("caps the uncle byte at 255 and writes the height big-endian", () => {
    const fdd = forkDetectionDataFromBlockHashes(0x01020304, Array(7).fill(new Uint8Array(32).fill(0xab)), 1000);
    expect(bytesToHex(fdd)).toBe("ababababababab" + "ff" + "01020304");
  });

  it("has no CPV heights below block 449", () => {
    expect(() => cpvHeights(448)).toThrow(RangeError);
    expect(cpvHeights(449)).toEqual([448, 384, 320, 256, 192, 128, 64]);
  });

  it("throws FORK_DETECTION_DATA_NOT_FOUND when the tag's prefix is changed", () => {
    const h = bySample(1_900_456);
    const fields = h.mergedMining!;
    const tagAt = 40 + 34; // the worked example's tag position in the tail
    const mutated = h.withMergedMining({...fields, coinbase: flipByte(fields.coinbase, tagAt + 9 + 5)}, mainnetRules);
    expect(readForkDetectionData(mutated)).toBeUndefined();
    expectCode(() => sealedHashForMergedMining(mutated, true), MergedMiningErrorCode.FORK_DETECTION_DATA_NOT_FOUND);
    // Without RSKIP-110 the fork-detection data is not looked for.
    expect(sealedHashForMergedMining(mutated, false)).toEqual(h.baseHashForMergedMining());
  });

  it("throws FORK_DETECTION_DATA_NOT_FOUND when fewer than 12 bytes follow the prefix", () => {
    const h = bySample(1_900_456);
    const fields = h.mergedMining!;
    const cut = fields.coinbase.subarray(0, 40 + 34 + 9 + 20 + 11);
    const mutated = h.withMergedMining({...fields, coinbase: cut}, mainnetRules);
    expectCode(() => sealedHashForMergedMining(mutated, true), MergedMiningErrorCode.FORK_DETECTION_DATA_NOT_FOUND);
  });
});
