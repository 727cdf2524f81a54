/** The mining, time and environment dev controls (docs/rpc.md §4.10) on a miner over a regtest chain. */
import type {Transaction} from "@xchain/primitives";
import {describe, expect, it} from "vitest";
import {MinerErrorCode} from "../src/index.ts";
import {cows, openMiner, transfer} from "./helpers.ts";

const NOW = 2_000_000_000;
const at = () => ({now: () => NOW * 1000});

describe("mining controls", () => {
  it("mine n blocks, each after the first `interval` seconds after the one before", async () => {
    const {miner, chain} = await openMiner({}, at());
    await miner.devControls().mining.mine(4, 600);
    expect(chain.head().number).toBe(4);
    const times = await Promise.all([1, 2, 3, 4].map(async (n) => (await chain.getHeaderByNumber(n))?.timestamp));
    expect(times).toEqual([NOW, NOW + 600, NOW + 1_200, NOW + 1_800]);
    // The clock goes on from the last block.
    await miner.mineBlock();
    expect(chain.head().header.timestamp).toBe(NOW + 1_801);
  });

  it("refuses a count past the bound, and stops when the signal aborts", async () => {
    const {miner, chain} = await openMiner({maxBlocksPerMine: 3});
    const {mining} = miner.devControls();
    await expect(mining.mine(4, 0)).rejects.toMatchObject({type: {code: MinerErrorCode.NOT_ALLOWED}});
    await expect(mining.mine(4, 0)).rejects.toThrow("at most 3 (miner.maxBlocksPerMine)");
    const controller = new AbortController();
    controller.abort();
    expect(await mining.mine(3, 0, controller.signal)).toBe(0);
    expect(chain.head().number).toBe(0);
  });

  it("refuses timestamps past 2^32 - 1 before mining any block", async () => {
    const {miner, chain} = await openMiner({}, at());
    await expect(miner.devControls().mining.mine(3, 2 ** 31)).rejects.toThrow("would pass 4294967295");
    expect(chain.head().number).toBe(0);
  });

  it("switch automine and interval mining at run time", async () => {
    const {miner} = await openMiner({enabled: true, autoMine: false, blockTimeMs: 0});
    const {mining} = miner.devControls();
    expect(mining.automine()).toBe(false);
    mining.setAutomine(true);
    expect(mining.automine()).toBe(true);
    expect(mining.intervalMining()).toBeNull();
    mining.setIntervalMining(2);
    expect(mining.intervalMining()).toBe(2);
    mining.setIntervalMining(0);
    expect(mining.intervalMining()).toBeNull();
    expect(() => mining.setIntervalMining(10_000_000)).toThrow("the interval is 0 (off) to 2147483");
  });

  it("drop a pooled transaction", async () => {
    const {miner, pool} = await openMiner();
    const tx = transfer(cows[0]!, {nonce: 0n});
    pool.add(tx);
    expect(await miner.devControls().mining.dropTransaction(tx.hash())).toBe(true);
    expect(pool.size).toBe(0);
  });

  it("a dropped transaction is not mined from work built before the drop", async () => {
    const {miner, pool, chain} = await openMiner();
    const {mining} = miner.devControls();
    const first = transfer(cows[0]!, {nonce: 0n});
    const second = transfer(cows[1]!, {nonce: 0n});
    const cases: [Transaction, () => Promise<unknown>][] = [
      [first, () => mining.dropTransaction(first.hash())],
      [second, () => mining.dropAllTransactions()],
    ];
    for (const [tx, drop] of cases) {
      pool.add(tx);
      await miner.getWork(); // a template that holds the pooled transaction
      await drop();
      await miner.mineBlock();
      expect((await chain.getBlock(chain.head().hash))?.transactions).toHaveLength(1); // REMASC's alone
    }
  });
});

describe("time controls", () => {
  it("put the next block at the timestamp set and refuse one not after the head", async () => {
    const {miner, chain} = await openMiner({}, at());
    const {time} = miner.devControls();
    time.setNextBlockTimestamp(NOW + 5_000);
    await miner.mineBlock();
    expect(chain.head().header.timestamp).toBe(NOW + 5_000);
    expect(() => time.setNextBlockTimestamp(NOW + 5_000)).toThrow(
      `cannot set the next block's timestamp to ${NOW + 5_000}: it must be greater than the head block's timestamp ${NOW + 5_000}`,
    );
    expect(() => time.setNextBlockTimestamp(2 ** 32)).toThrow("a block timestamp is 0 to 4294967295");
  });

  it("set the time, and space blocks by an interval of at least 1 s", async () => {
    const {miner, chain} = await openMiner({}, at());
    const {time} = miner.devControls();
    expect(time.setTime(NOW + 100)).toBe(100);
    await miner.mineBlock();
    expect(chain.head().header.timestamp).toBe(NOW + 100);
    expect(() => time.setBlockTimestampInterval(0)).toThrow("the interval is at least 1");
    time.setBlockTimestampInterval(9);
    await miner.mineBlock();
    expect(chain.head().header.timestamp).toBe(NOW + 109);
    expect(time.removeBlockTimestampInterval()).toBe(true);
  });
});

describe("environment controls", () => {
  it("mine the next block to the coinbase and gas limit set", async () => {
    const {miner, chain} = await openMiner();
    const {environment} = miner.devControls();
    const coinbase = new Uint8Array(20).fill(7);
    environment.setCoinbase(coinbase);
    const gasLimit = chain.head().header.gasLimit + 1_000n;
    environment.setBlockGasLimit(gasLimit);
    await miner.mineBlock();
    expect(chain.head().header.coinbase).toEqual(coinbase);
    expect(miner.coinbase).toEqual(coinbase);
    expect(chain.head().header.gasLimit).toBe(gasLimit);
    expect(() => environment.setBlockGasLimit(1n)).toThrow("this network's blocks carry at least 3000000");
  });

  it("step the blocks' minimumGasPrice toward the price set", async () => {
    const {miner, chain} = await openMiner();
    const {environment} = miner.devControls();
    environment.setMinGasPrice(10n ** 9n);
    await miner.mineBlock();
    expect(chain.head().header.minimumGasPrice).toBe(1n);
    expect(environment.settings().minGasPriceInWei).toBe(10n ** 9n);
  });
});

describe("the dev controls' gate", () => {
  it("refuses every group where devControls is off", async () => {
    const {miner} = await openMiner({devControls: false});
    expect(() => miner.devControls()).toThrow("disabled on this network (miner.devControls)");
  });
});
