import {forkChainspec} from "@xchain/chainspec";
import {readJsonVector} from "@xchain/test-utils";
import {describe, expect, it} from "vitest";
import {calculateDifficulty} from "../src/index.ts";
import {mainnet, mainnetHeaders, regtest, testnet} from "./helpers.ts";

interface DifficultyVector {
  number: number;
  parentDifficulty: string;
  parentTimestamp: number;
  timestamp: number;
  uncleCount: number;
  expectedDifficulty: string;
}

describe("calculateDifficulty", () => {
  it("matches every difficulty-vectors.json entry", () => {
    const {vectors} = readJsonVector<{vectors: DifficultyVector[]}>("difficulty-vectors.json");
    expect(vectors.length).toBeGreaterThan(40);
    for (const v of vectors) {
      const header = {number: v.number, timestamp: v.timestamp, uncleCount: v.uncleCount};
      const parent = {difficulty: BigInt(v.parentDifficulty), timestamp: v.parentTimestamp};
      expect(calculateDifficulty(header, parent, mainnet), `block ${v.number}`).toBe(BigInt(v.expectedDifficulty));
    }
  });

  it("reproduces the difficulty of every real mainnet header from its parent", () => {
    const headers = mainnetHeaders();
    for (let i = 1; i < headers.length; i++) {
      const h = headers[i]!;
      expect(calculateDifficulty(h, headers[i - 1]!, mainnet), `block ${h.number}`).toBe(h.difficulty);
    }
  });

  const parent = {difficulty: 4_000_000n, timestamp: 1_000};

  it("raises below the target, lowers above it, keeps it on the target", () => {
    // testnet at height 900,000: divisor 400, duration 14 s, minimum 131,072.
    const at = (timestamp: number, uncleCount = 0) =>
      calculateDifficulty({number: 900_000, timestamp, uncleCount}, parent, testnet);
    expect(at(1_013)).toBe(4_010_000n);
    expect(at(1_015)).toBe(3_990_000n);
    expect(at(1_014)).toBe(4_000_000n);
    // Each uncle adds one duration to the target.
    expect(at(1_028, 1)).toBe(4_000_000n);
    expect(at(1_027, 1)).toBe(4_010_000n);
  });

  it("keeps the parent difficulty when the timestamp goes backwards", () => {
    expect(calculateDifficulty({number: 900_000, timestamp: 999, uncleCount: 0}, parent, testnet)).toBe(4_000_000n);
  });

  it("uses the pre-RSKIP-156 divisor 50 below the activation height", () => {
    expect(calculateDifficulty({number: 862_999, timestamp: 1_001, uncleCount: 0}, parent, testnet)).toBe(4_080_000n);
  });

  it("resets to the minimum after a 600 s gap where RSKIP-97 is not active (testnet forever)", () => {
    const big = {difficulty: 10n ** 12n, timestamp: 1_000};
    expect(calculateDifficulty({number: 900_000, timestamp: 1_600, uncleCount: 0}, big, testnet)).toBe(131_072n);
    expect(calculateDifficulty({number: 900_000, timestamp: 1_599, uncleCount: 0}, big, testnet)).toBe(
      10n ** 12n - 10n ** 12n / 400n,
    );
    // RSKIP-290 raises testnet's minimum, which the reset then uses.
    expect(calculateDifficulty({number: 2_581_800, timestamp: 1_600, uncleCount: 0}, big, testnet)).toBe(550_000_000n);
  });

  it("resets on mainnet only before RSKIP-97 (729,000)", () => {
    const big = {difficulty: 10n ** 18n, timestamp: 1_000};
    expect(calculateDifficulty({number: 728_999, timestamp: 1_600, uncleCount: 0}, big, mainnet)).toBe(7n * 10n ** 15n);
    expect(calculateDifficulty({number: 729_000, timestamp: 1_600, uncleCount: 0}, big, mainnet)).toBe(
      10n ** 18n - 10n ** 18n / 50n,
    );
  });

  it("never goes below the minimum", () => {
    const low = {difficulty: 7n * 10n ** 15n, timestamp: 1_000};
    expect(calculateDifficulty({number: 4_000_000, timestamp: 1_100, uncleCount: 0}, low, mainnet)).toBe(
      7n * 10n ** 15n,
    );
  });

  it("stays at 1 on regtest", () => {
    const one = {difficulty: 1n, timestamp: 1_000};
    expect(calculateDifficulty({number: 5, timestamp: 1_001, uncleCount: 0}, one, regtest)).toBe(1n);
    expect(calculateDifficulty({number: 5, timestamp: 1_100, uncleCount: 0}, one, regtest)).toBe(1n);
  });
});

describe("calculateDifficulty on a fork (docs/forking.md §4)", () => {
  const F = 7_000_000;
  const fork = forkChainspec({upstreamChainId: 30, forkBlockNumber: F});
  // A mainnet-like anchor: far above what a CPU merge-miner seals.
  const anchor = {difficulty: 7_000_000_000_000_000_000n, timestamp: 1_700_000_000};

  it("mines the block right after the fork block at the minimum difficulty", () => {
    const first = {number: F + 1, timestamp: anchor.timestamp + 1, uncleCount: 0};
    expect(calculateDifficulty(first, anchor, fork)).toBe(fork.minimumDifficulty(F + 1));
    // Regtest's own rule would have kept the anchor's difficulty within 1/2048.
    expect(calculateDifficulty(first, anchor, regtest)).toBeGreaterThan(anchor.difficulty);
  });

  it("follows regtest's formula from the second block on", () => {
    const parent = {difficulty: 1n, timestamp: anchor.timestamp + 1};
    const second = {number: F + 2, timestamp: anchor.timestamp + 2, uncleCount: 0};
    expect(calculateDifficulty(second, parent, fork)).toBe(calculateDifficulty(second, parent, regtest));
    const later = {number: F + 2, timestamp: anchor.timestamp + 2, uncleCount: 0};
    const hard = {difficulty: 4_096_000n, timestamp: anchor.timestamp + 1};
    expect(calculateDifficulty(later, hard, fork)).toBe(4_098_000n);
  });

  it("moves the minimum-difficulty block with a re-anchor (docs/forking.md §8)", () => {
    const moved = forkChainspec({upstreamChainId: 30, forkBlockNumber: F});
    const earlier = F - 1_000;
    moved.moveForkBlock(earlier);
    expect(moved.params.forkBlockNumber).toBe(earlier);
    const first = {number: earlier + 1, timestamp: anchor.timestamp + 1, uncleCount: 0};
    expect(calculateDifficulty(first, anchor, moved)).toBe(moved.minimumDifficulty(earlier + 1));
    // The old F + 1 is an ordinary block now.
    const old = {number: F + 1, timestamp: anchor.timestamp + 1, uncleCount: 0};
    expect(calculateDifficulty(old, anchor, moved)).toBeGreaterThan(anchor.difficulty);
  });
});
