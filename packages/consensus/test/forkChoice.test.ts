import {readJsonVector} from "@xchain/test-utils";
import {describe, expect, it} from "vitest";
import {type ChainHead, cumulativeDifficulty, isBetterHead, totalDifficulty} from "../src/index.ts";

const LOW_HASH = new Uint8Array(32).fill(0x11);
const HIGH_HASH = new Uint8Array(32).fill(0x22);

function head(totalDifficulty: bigint, paidFees: bigint, hash: Uint8Array): ChainHead {
  return {totalDifficulty, header: {paidFees, hash: () => hash}};
}

describe("cumulativeDifficulty and totalDifficulty", () => {
  const {blocks} = readJsonVector<{blocks: {number: number; rpcJson: Record<string, string>}[]}>(
    "testnet-blocks-from-rpc-json.json",
  );
  const rpc = (n: number) => blocks.find((b) => b.number === n)!.rpcJson;

  it("adds the uncle's difficulty (testnet block 64,746)", () => {
    const block = rpc(64_746);
    expect(block.difficulty).toBe("0x24aa8907");
    const uncle = {difficulty: 0x233e0b70n};
    expect(cumulativeDifficulty({difficulty: BigInt(block.difficulty!)}, [uncle])).toBe(
      BigInt(block.cumulativeDifficulty!),
    );
  });

  it("accumulates into the chain's total (testnet block 3: 10 uncles of 131,072)", () => {
    const block = rpc(3);
    const own = {difficulty: BigInt(block.difficulty!)};
    const uncles = Array.from({length: 10}, () => ({difficulty: 131_072n}));
    expect(cumulativeDifficulty(own, uncles)).toBe(BigInt(block.cumulativeDifficulty!));
    // Genesis 0x100000 plus blocks 1 and 2 at the 0x20000 minimum.
    const parentTotal = 0x100000n + 2n * 0x20000n;
    expect(totalDifficulty(parentTotal, own, uncles)).toBe(BigInt(block.totalDifficulty!));
  });

  it("is the own difficulty without uncles", () => {
    expect(cumulativeDifficulty({difficulty: 7n}, [])).toBe(7n);
  });
});

describe("isBetterHead", () => {
  it("prefers a strictly higher total difficulty whatever the fees and hashes", () => {
    expect(isBetterHead(head(11n, 0n, HIGH_HASH), head(10n, 1000n, LOW_HASH))).toBe(true);
    expect(isBetterHead(head(10n, 1000n, LOW_HASH), head(11n, 0n, HIGH_HASH))).toBe(false);
  });

  it("on equal difficulty, switches to more than twice the paid fees even with a higher hash", () => {
    expect(isBetterHead(head(10n, 201n, HIGH_HASH), head(10n, 100n, LOW_HASH))).toBe(true);
  });

  it("on equal difficulty, exactly twice the fees falls through to the hash comparison", () => {
    expect(isBetterHead(head(10n, 200n, HIGH_HASH), head(10n, 100n, LOW_HASH))).toBe(false);
    expect(isBetterHead(head(10n, 200n, LOW_HASH), head(10n, 100n, HIGH_HASH))).toBe(true);
  });

  it("on equal difficulty and comparable fees, switches only to a smaller hash", () => {
    expect(isBetterHead(head(10n, 100n, LOW_HASH), head(10n, 100n, HIGH_HASH))).toBe(true);
    expect(isBetterHead(head(10n, 100n, HIGH_HASH), head(10n, 100n, LOW_HASH))).toBe(false);
    expect(isBetterHead(head(10n, 60n, LOW_HASH), head(10n, 100n, HIGH_HASH))).toBe(true);
  });

  it("does not switch to a smaller hash when the current head's fees are at least twice the candidate's", () => {
    expect(isBetterHead(head(10n, 50n, LOW_HASH), head(10n, 100n, HIGH_HASH))).toBe(false);
  });

  it("never switches between two heads with zero fees (0 < 2 × 0 fails)", () => {
    expect(isBetterHead(head(10n, 0n, LOW_HASH), head(10n, 0n, HIGH_HASH))).toBe(false);
  });

  it("compares hashes as unsigned bytes", () => {
    const high = new Uint8Array(32).fill(0x80);
    const low = new Uint8Array(32).fill(0x7f);
    expect(isBetterHead(head(10n, 1n, low), head(10n, 1n, high))).toBe(true);
    expect(isBetterHead(head(10n, 1n, high), head(10n, 1n, low))).toBe(false);
  });
});
