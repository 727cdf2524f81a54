/**
 * The chain controls (docs/rpc.md §4.10 "Snapshots, reset, dump and load"): a snapshot is the head, its
 * effective state root, the pool and the clock; revert puts back all four; reset goes to genesis; the
 * head's state dumps by address and slot and loads back as anvil's does.
 */
import {defaultTxPoolOptions, TxPool} from "@xchain/txpool";
import {equalBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {MinerErrorCode} from "../src/index.ts";
import {account, cows, openMiner, regtest, transfer} from "./helpers.ts";

const ONE_RBTC = 10n ** 18n;
const slot = (n: number) => {
  const bytes = new Uint8Array(32);
  bytes[31] = n;
  return bytes;
};
const word = (n: number) => slot(n);

async function openWithPool(now?: () => number) {
  return openMiner<TxPool>(
    {},
    {pool: (chain) => new TxPool(defaultTxPoolOptions, {chainspec: regtest, chain}), ...(now && {now})},
  );
}

describe("chain controls", () => {
  it("revert puts back the head, an edited state at the same head, the pool and the clock", async () => {
    const now = 2_000_000_000_000;
    const {miner, chain, pool} = await openWithPool(() => now);
    const controls = miner.devControls().chain;
    const alice = account("snapshot alice");
    await chain.editHeadState((state) => state.setBalance(alice.address, ONE_RBTC));
    const pending = transfer(cows[0]!, {nonce: 0n});
    await pool.add(pending);
    miner.increaseTime(600);
    const head = chain.head();
    const root = chain.stateRootAfter(head.header);
    const id = controls.snapshot();

    // After the snapshot: another edit at the same head, a later transaction, more shift, a block.
    await chain.editHeadState((state) => state.setBalance(alice.address, 5n));
    await pool.add(transfer(cows[1]!, {nonce: 0n}));
    miner.increaseTime(60);
    await miner.mineBlock();
    expect(chain.head().number).toBe(1);

    expect(await controls.revert(id)).toBe(true);
    expect(chain.head().hash).toEqual(head.hash);
    expect(chain.stateRootAfter(chain.head().header)).toEqual(root);
    expect(await (await chain.stateAfter(chain.head().header)).getBalance(alice.address)).toBe(ONE_RBTC);
    expect(pool.pending().map((tx) => tx.hash())).toEqual([pending.hash()]);
    expect(miner.increaseTime(0)).toBe(600);
    await pool.close();
  });

  it("revert reaches a snapshot whose block a pruned chain's window left behind: the snapshot pins its state", async () => {
    const {miner, chain} = await openMiner({}, {retention: {mode: "pruned", retainBlocks: 2}});
    const controls = miner.devControls().chain;
    const alice = account("pinned alice");
    await chain.editHeadState((state) => state.setBalance(alice.address, ONE_RBTC));
    const head = chain.head();
    const id = controls.snapshot();
    for (let i = 1; i <= 8; i++) {
      await chain.editHeadState((state) => state.setBalance(alice.address, BigInt(i)));
      await miner.mineBlock();
    }
    await chain.collectorIdle();
    expect(chain.collectorStats().collections).toBeGreaterThan(0);
    expect(chain.oldestStateBlock()).toBeGreaterThan(head.number);

    expect(await controls.revert(id)).toBe(true);
    expect(chain.head().hash).toEqual(head.hash);
    expect(await (await chain.stateAfter(chain.head().header)).getBalance(alice.address)).toBe(ONE_RBTC);
    await miner.mineBlock();
    expect(chain.head().number).toBe(head.number + 1);
  });

  it("revert waits for the block the built-in miner is making: it cannot bring the abandoned chain back", async () => {
    const {miner, chain} = await openMiner();
    const controls = miner.devControls().chain;
    const id = controls.snapshot();
    await miner.mineBlock();
    await miner.mineBlock();
    // A block in the making on head 2 (an interval or instant block) when the revert comes: imported after
    // the head moved back, it would be the heavier chain again (block 3 on 2), the revert undone.
    const inFlight = miner.mineBlock();
    const reverted = controls.revert(id);
    await Promise.all([inFlight, reverted]);
    expect(await reverted).toBe(true);
    expect(chain.head().number).toBe(0);
    await miner.mineBlock();
    expect(chain.head().number).toBe(1);
  });

  it("a state edit waits for the block in the making: the next block is made on the edited state", async () => {
    const {miner, chain} = await openMiner();
    const alice = account("edit in flight");
    const inFlight = miner.mineBlock();
    const edited = miner.devControls().state.setBalance(alice.address, 9n);
    await Promise.all([inFlight, edited]);
    expect(chain.head().number).toBe(1);
    await miner.mineBlock();
    expect(chain.head().number).toBe(2);
    expect(await (await chain.stateAfter(chain.head().header)).getBalance(alice.address)).toBe(9n);
  });

  it("revert to the same head restores an edited state without moving the head", async () => {
    const {miner, chain} = await openMiner();
    const alice = account("same head");
    const id = miner.devControls().chain.snapshot();
    await chain.editHeadState((state) => state.setBalance(alice.address, 7n));
    expect(await miner.devControls().chain.revert(id)).toBe(true);
    expect(chain.head().number).toBe(0);
    expect(await (await chain.stateAfter(chain.head().header)).getAccount(alice.address)).toBeUndefined();
  });

  it("reset goes back to genesis and its own state, with an empty pool and no snapshot", async () => {
    const {miner, chain, pool} = await openWithPool();
    const genesis = chain.head().header;
    await chain.editHeadState((state) => state.setBalance(cows[3]!.address, 1n));
    await miner.mineBlock();
    miner.devControls().chain.snapshot();
    await pool.add(transfer(cows[0]!, {nonce: 0n}));
    await miner.devControls().chain.reset();
    expect(chain.head().number).toBe(0);
    expect(chain.stateRootAfter(chain.head().header)).toEqual(genesis.stateRoot);
    expect(pool.status()).toEqual({pending: 0, queued: 0});
    expect(await miner.devControls().chain.revert(1)).toBe(false);
    await pool.close();
  });

  it("dumps the head's state by address, and a dump loads back after a reset", async () => {
    const {miner, chain} = await openMiner();
    const contract = account("dumped contract").address;
    const code = Uint8Array.of(0x60, 0x01, 0x60, 0x00, 0x55, 0x00);
    await chain.editHeadState(async (state) => {
      await state.setCode(contract, code);
      await state.setNonce(contract, 1n);
      await state.setBalance(contract, 42n);
      await state.setStorage(contract, slot(1), word(9));
      await state.setStorage(contract, slot(2), word(10));
    });
    await miner.mineBlock();
    const dump = await miner.devControls().chain.dumpState();
    expect(dump).toMatchObject({unnamedAccounts: 0, unnamedSlots: 0});
    const dumped = dump.accounts.find((a) => equalBytes(a.address, contract));
    expect(dumped).toEqual({
      address: contract,
      nonce: 1n,
      balance: 42n,
      code,
      storage: [
        [slot(1), word(9)],
        [slot(2), word(10)],
      ],
    });
    // Every genesis account (the cows, the precompiles' and bridge's accounts) is named too.
    expect(dump.accounts.some((a) => equalBytes(a.address, cows[0]!.address))).toBe(true);

    await miner.devControls().chain.reset();
    expect(await (await chain.stateAfter(chain.head().header)).getCode(contract)).toEqual(new Uint8Array(0));
    await miner.devControls().chain.loadState(dump.accounts);
    const state = await chain.stateAfter(chain.head().header);
    expect(await state.getCode(contract)).toEqual(code);
    expect(await state.getNonce(contract)).toBe(1n);
    expect(await state.getBalance(contract)).toBe(42n);
    expect(await state.getStorage(contract, slot(2))).toEqual(word(10));
    // The loaded state is the head's: the next block carries it (the REMASC sender's nonce, 1 in the
    // dump taken at block 1, stayed at genesis's 0, which the block's REMASC transaction carries).
    await miner.mineBlock();
    expect(await (await chain.stateAfter(chain.head().header)).getStorage(contract, slot(1))).toEqual(word(9));
  });

  it("load keeps a higher nonce than the dump's, as anvil does", async () => {
    const {miner, chain} = await openMiner();
    const alice = account("nonce keeper").address;
    await chain.editHeadState((state) => state.setNonce(alice, 5n));
    await miner
      .devControls()
      .chain.loadState([{address: alice, nonce: 2n, balance: 3n, code: new Uint8Array(0), storage: []}]);
    const state = await chain.stateAfter(chain.head().header);
    expect(await state.getNonce(alice)).toBe(5n);
    expect(await state.getBalance(alice)).toBe(3n);
  });

  it("a dump past miner.dumpStateMaxBytes is refused with the limit", async () => {
    const {miner} = await openMiner({dumpStateMaxBytes: 1_000});
    await expect(miner.devControls().chain.dumpState()).rejects.toMatchObject({
      message: expect.stringContaining("passes its limit of 1000 bytes of JSON"),
    });
  });

  it("every chain control is refused where the dev controls are off", async () => {
    const {miner} = await openMiner({devControls: false});
    const refused = {type: expect.objectContaining({code: MinerErrorCode.NOT_ALLOWED})};
    expect(() => miner.devControls().chain.dumpState()).toThrow(expect.objectContaining(refused));
    expect(() => miner.devControls().chain.snapshot()).toThrow(expect.objectContaining(refused));
  });
});
