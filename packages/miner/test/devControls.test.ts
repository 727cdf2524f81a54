/**
 * The evm_* development controls (docs/protocol/mining-rpc.md §6): mine, increaseTime, snapshot, revert,
 * reset; refused when disabled.
 */
import {ImportResultKind} from "@xchain/chain";
import {getChainspec} from "@xchain/chainspec";
import type {Transaction} from "@xchain/primitives";
import {defaultTxPoolOptions, TxPool} from "@xchain/txpool";
import {describe, expect, it} from "vitest";
import {defaultMinerOptions, MinerErrorCode} from "../src/index.ts";
import {cows, openMiner, regtest, solvedBlock, TestPool, transfer, waitFor} from "./helpers.ts";

describe("evm_* controls", () => {
  it("evm_mine mines one block now, empty when nothing is pending", async () => {
    const {miner, chain} = await openMiner();
    const result = await miner.mineBlock();
    expect(result).toEqual({
      importResult: ImportResultKind.IMPORTED_BEST,
      blockHash: chain.head().hash,
      blockIncludedHeight: 1,
    });
    expect(chain.head().header.gasUsed).toBe(0n);
  });

  it("evm_increaseTime shifts the timestamps of the next blocks and returns the total shift", async () => {
    const now = 2_000_000_000;
    const {miner, chain} = await openMiner({}, {now: () => now});
    await miner.getWork();
    expect(miner.increaseTime(3_600)).toBe(3_600);
    expect(miner.increaseTime(400)).toBe(4_000);
    await miner.mineBlock();
    expect(chain.head().header.timestamp).toBe(2_000_000 + 4_000);
    // The cached template was built before the shift: the work was rebuilt.
    expect((await miner.getWork()).parentBlockHash).toEqual(chain.head().hash);
    expect(() => miner.increaseTime(-1)).toThrow(
      expect.objectContaining({type: expect.objectContaining({code: MinerErrorCode.NOT_ALLOWED})}),
    );
  });

  it("evm_increaseTime counts from the head when quick mining put it ahead of the clock (docs/rpc.md §4.7)", async () => {
    const now = 2_000_000_000_000;
    const {miner, chain} = await openMiner({}, {now: () => now});
    for (let i = 0; i < 5; i++) await miner.mineBlock();
    const parent = chain.head().header.timestamp;
    expect(parent).toBe(2_000_000_000 + 4);
    expect(miner.increaseTime(3_600)).toBe(3_600);
    await miner.mineBlock();
    expect(chain.head().header.timestamp).toBeGreaterThanOrEqual(parent + 3_600);
    // The shift goes on from there: the next block follows the shifted clock, not the head + 1 rule alone.
    expect(miner.increaseTime(60)).toBe(3_660);
    await miner.mineBlock();
    expect(chain.head().header.timestamp).toBeGreaterThanOrEqual(parent + 3_660);
  });

  it("evm_increaseTime refuses a shift past the latest block timestamp, and mining goes on", async () => {
    const now = 2_000_000_000_000;
    const {miner, chain} = await openMiner({}, {now: () => now});
    expect(() => miner.increaseTime(0x1fffffffffffff)).toThrow(
      expect.objectContaining({
        type: expect.objectContaining({code: MinerErrorCode.NOT_ALLOWED}),
        message: `cannot shift the clock by ${0x1fffffffffffff} seconds: block timestamps would pass 4294967295, the latest a block can carry`,
      }),
    );
    expect(() => miner.increaseTime(2 ** 32 - 2_000_000_000)).toThrow(/would pass 4294967295/);
    expect(miner.increaseTime(2 ** 32 - 1 - 2_000_000_000)).toBe(2 ** 32 - 1 - 2_000_000_000);
    await miner.mineBlock();
    expect(chain.head().header.timestamp).toBe(2 ** 32 - 1);
  });

  it("evm_reset drops the clock shift", async () => {
    const now = 2_000_000_000_000;
    const {miner, chain} = await openMiner({}, {now: () => now});
    miner.increaseTime(3_600);
    await miner.mineBlock();
    await miner.devControls().chain.reset();
    await miner.mineBlock();
    expect(chain.head().header.timestamp).toBe(2_000_000_000);
    expect(miner.increaseTime(0)).toBe(0);
  });

  it("a failed template build leaves nothing behind: the next evm_mine builds again", async () => {
    let fail = true;
    const {miner, chain, pool} = await openMiner<TestPool>(
      {},
      {
        pool: (chain) =>
          new (class extends TestPool {
            override pendingForBlock(): Transaction[] {
              if (fail) throw new Error("build failed");
              return super.pendingForBlock();
            }
          })(chain),
      },
    );
    await expect(miner.mineBlock()).rejects.toThrow("build failed");
    fail = false;
    pool.add(transfer(cows[0]!, {nonce: 0n}));
    expect((await miner.mineBlock()).blockIncludedHeight).toBe(1);
    expect(chain.head().header.gasUsed).toBe(21_000n);
  });

  it("evm_snapshot / evm_revert return to the snapshot's head; a revert forgets later snapshots", async () => {
    const {miner, chain, pool} = await openMiner();
    await miner.mineBlock();
    const first = miner.devControls().chain.snapshot();
    const atFirst = chain.head().hash;
    pool.add(transfer(cows[0]!, {nonce: 0n}));
    await miner.mineBlock();
    const second = miner.devControls().chain.snapshot();
    await miner.mineBlock();
    expect([first, second]).toEqual([1, 2]);
    expect(chain.head().number).toBe(3);
    const staleWork = await miner.getWork();

    expect(await miner.devControls().chain.revert(first)).toBe(true);
    expect(chain.head().hash).toEqual(atFirst);
    expect(await chain.getBlockByNumber(2)).toBeUndefined();
    const state = await chain.stateAt(chain.head().hash);
    expect(await state.getNonce(cows[0]!.address)).toBe(0n);
    // The snapshot and the later one are gone; so is the work on the abandoned blocks.
    expect(await miner.devControls().chain.revert(first)).toBe(false);
    expect(await miner.devControls().chain.revert(second)).toBe(false);
    await expect(
      miner.submitBitcoinBlock(solvedBlock(staleWork.blockHashForMergedMining, 2n ** 256n / 3n)),
    ).rejects.toMatchObject({type: {code: MinerErrorCode.WORK_NOT_FOUND}});

    // Mining goes on from the reverted head.
    expect((await miner.mineBlock()).blockIncludedHeight).toBe(2);
    expect((await miner.getWork()).parentBlockHash).toEqual(chain.head().hash);
  });

  it("evm_revert with the auto-miner and the txpool: the reverted transaction is not mined again", async () => {
    const {miner, chain, pool} = await openMiner(
      {enabled: true},
      {pool: (chain) => new TxPool(defaultTxPoolOptions, {chainspec: regtest, chain})},
    );
    const id = miner.devControls().chain.snapshot();
    await pool.add(transfer(cows[0]!, {nonce: 0n}));
    await waitFor(() => chain.head().number === 1);
    expect(await miner.devControls().chain.revert(id)).toBe(true);
    await pool.settled();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(chain.head().number).toBe(0);
    expect(pool.status()).toEqual({pending: 0, queued: 0});
    // The same nonce can be sent again, and is mined.
    await pool.add(transfer(cows[0]!, {nonce: 0n, value: 2n}));
    await waitFor(() => chain.head().number === 1);
    await pool.close();
  });

  it("evm_reset returns to genesis", async () => {
    const {miner, chain} = await openMiner();
    await miner.mineBlock();
    miner.devControls().chain.snapshot();
    await miner.mineBlock();
    await miner.devControls().chain.reset();
    expect(chain.head().number).toBe(0);
    expect(await miner.devControls().chain.revert(1)).toBe(false);
    expect((await miner.mineBlock()).blockIncludedHeight).toBe(1);
  });

  it("refuses every control where they are disabled (mainnet and testnet by default)", async () => {
    const {miner, chain} = await openMiner({devControls: false});
    const refused = {type: expect.objectContaining({code: MinerErrorCode.NOT_ALLOWED})};
    await expect(miner.mineBlock()).rejects.toMatchObject(refused);
    expect(() => miner.increaseTime(1)).toThrow(expect.objectContaining(refused));
    expect(() => miner.startMining()).toThrow(expect.objectContaining(refused));
    // The groups beyond evm_mine and the clock (snapshots, revert, reset…) are behind the one check.
    expect(() => miner.devControls()).toThrow(expect.objectContaining(refused));
    expect(chain.head().number).toBe(0);
  });

  it("are on by default on regtest only; testnet limits submissions to one per 10 s", () => {
    for (const name of ["mainnet", "testnet"] as const) {
      expect(defaultMinerOptions(getChainspec(name))).toMatchObject({devControls: false, enabled: false});
    }
    expect(defaultMinerOptions(getChainspec("testnet")).submissionRateLimitMs).toBe(10_000);
    expect(defaultMinerOptions(getChainspec("regtest"))).toMatchObject({
      devControls: true,
      enabled: true,
      autoMine: true,
      submissionRateLimitMs: 0,
      targetGasLimit: 7_500_000n,
    });
  });
});
