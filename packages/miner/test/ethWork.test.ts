/** eth_getWork / eth_submitWork over merged mining (docs/mining.md) and eth_hashrate. */
import {bitcoinPowValue, NONCE_OFFSET, sha256Midstate} from "@xchain/merged-mining";
import {bigIntToFixedBytes, bytesToBigInt, bytesToHex} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {ethWorkPowValue} from "../src/index.ts";
import {openMiner} from "./helpers.ts";

/** The first nonce whose value `accept`s, as eth_submitWork's 8 bytes. */
function findNonce(midstate: Uint8Array, tail: Uint8Array, accept: (pow: bigint) => boolean): Uint8Array {
  for (let nonce = 0; ; nonce++) {
    if (accept(ethWorkPowValue(midstate, tail, nonce))) return bigIntToFixedBytes(BigInt(nonce), 8);
  }
}

describe("eth_getWork / eth_submitWork", () => {
  it("hands out midstate, tail and target, and a nonce that meets the target mines a block", async () => {
    const {miner, chain} = await openMiner();
    const [midstate, tail, boundary] = await miner.getEthWork();
    expect(midstate).toHaveLength(32);
    expect(bytesToHex(tail.subarray(12))).toBe("00".repeat(20));
    expect(bytesToHex(boundary)).toBe("55".repeat(32));
    // Same work until something changes.
    expect((await miner.getEthWork())[0]).toEqual(midstate);

    const target = bytesToBigInt(boundary);
    const nonce = findNonce(midstate, tail, (pow) => pow <= target);
    expect(await miner.submitEthWork(nonce, midstate, new Uint8Array(32))).toBe(true);
    expect(chain.head().number).toBe(1);
    const bitcoinHeader = chain.head().header.mergedMining!.bitcoinHeader;
    // The header is the one handed out: same midstate, same tail, the nonce little-endian in the last 4 bytes.
    const state = sha256Midstate(bitcoinHeader.subarray(0, 64));
    expect(bytesToHex(midstate)).toBe([...state].map((w) => w.toString(16).padStart(8, "0")).join(""));
    expect(bitcoinHeader.subarray(64, 76)).toEqual(tail.subarray(0, 12));
    expect(new DataView(bitcoinHeader.buffer, bitcoinHeader.byteOffset).getUint32(NONCE_OFFSET, true)).toBe(
      Number(bytesToBigInt(nonce)),
    );
    expect(bitcoinPowValue(bitcoinHeader)).toBe(ethWorkPowValue(midstate, tail, Number(bytesToBigInt(nonce))));
    // The next work builds on the new head.
    expect((await miner.getEthWork())[0]).not.toEqual(midstate);
  });

  it("answers false for unknown work, a nonce that misses the target or does not fit 32 bits, logging why", async () => {
    const {miner, chain, infos} = await openMiner();
    const [midstate, tail, boundary] = await miner.getEthWork();
    const target = bytesToBigInt(boundary);
    const miss = findNonce(midstate, tail, (pow) => pow > target);
    expect(await miner.submitEthWork(miss, midstate, new Uint8Array(32))).toBe(false);
    const hit = findNonce(midstate, tail, (pow) => pow <= target);
    expect(await miner.submitEthWork(hit, new Uint8Array(32), new Uint8Array(32))).toBe(false);
    expect(await miner.submitEthWork(bigIntToFixedBytes(2n ** 32n, 8), midstate, new Uint8Array(32))).toBe(false);
    expect(chain.head().number).toBe(0);
    expect(infos).toEqual([
      "eth_submitWork refused: the solution is above the target",
      `eth_submitWork refused: no cached eth_getWork work has the pow hash 0x${"00".repeat(32)} (stale or unknown)`,
      "eth_submitWork refused: the nonce 0x0000000100000000 is above 2^32 - 1",
    ]);
  });
});

describe("work while the node is not synced", () => {
  it("is refused with the reason and the keys to set, unless allowSolo", async () => {
    const notSyncedReason = () => "this testnet node has not seen a peer yet";
    const {miner} = await openMiner({}, {notSyncedReason});
    const refusal =
      "no mining work: this testnet node has not seen a peer yet, so a block mined now could be on a dead fork; " +
      "add peers with p2p.bootnodes (--p2p.bootnodes), or set miner.allowSolo = true (--miner.allowSolo) to mine alone";
    await expect(miner.getWork()).rejects.toThrow(refusal);
    await expect(miner.getEthWork()).rejects.toThrow(refusal);
    const solo = await openMiner({allowSolo: true}, {notSyncedReason});
    expect((await solo.miner.getWork()).blockHashForMergedMining).toHaveLength(32);
    expect((await solo.miner.getEthWork())[0]).toHaveLength(32);
  });
});

describe("hashrate", () => {
  it("sums the built-in miner's hashes over the window and the recent eth_submitHashrate reports", async () => {
    let now = 1_000_000;
    const {miner} = await openMiner({hashrateWindowMs: 1_000}, {now: () => now});
    expect(miner.hashrate()).toBe(0n);
    await miner.mineBlock();
    const own = miner.hashrate();
    expect(own).toBeGreaterThanOrEqual(1n);
    miner.submitHashrate(500n, new Uint8Array(32).fill(1));
    miner.submitHashrate(700n, new Uint8Array(32).fill(1));
    miner.submitHashrate(100n, new Uint8Array(32).fill(2));
    expect(miner.hashrate()).toBe(own + 800n);
    now += 1_001;
    expect(miner.hashrate()).toBe(0n);
  });
});
