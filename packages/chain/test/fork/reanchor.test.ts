/**
 * `Chain.reanchor` (docs/forking.md §3.2): a forked chain moved onto another fork block in one
 * batch, its old local blocks out of the canonical index, the events that make the pool, the miner
 * and the caches start over, the fork accessor and the store naming the new anchor (restart).
 */
import {MemoryStore, type WriteBatch} from "@xchain/db";
import {bytesToHex, hexToBytes} from "@xchain/utils";
import {afterEach, describe, expect, it} from "vitest";
import {type Chain, ChainErrorCode, type NewHeadEvent, readForkAnchor, type StateEditedEvent} from "../../src/index.ts";
import {cleanup, cows, openTempStore, regtest, signTx} from "../helpers.ts";
import {buildSource, F, type ForkedChain, forkAt, mineOnFork, openFork, type SourceChain, word} from "./forkSetup.ts";

afterEach(cleanup);

/** The new fork block: two blocks below the first. */
const F2 = F - 2;
const RECIPIENT = hexToBytes("0x00000000000000000000000000000000000000aa");

/** A fork of F with two local blocks: a transfer, then a BLOCKHASH call that logs nothing. */
async function forkWithBlocks(source: SourceChain, fork: ForkedChain) {
  const transfer = signTx(cows[1]!, {nonce: 1n, to: RECIPIENT, value: 1_234n, gasPrice: 1n});
  const first = await mineOnFork(fork, [transfer]);
  const call = signTx(cows[0]!, {nonce: 2n, to: source.contract, gasLimit: 100_000n, gasPrice: 1n, data: word(F)});
  const second = await mineOnFork(fork, [call]);
  return {first, second, transfer};
}

function recordEvents(chain: Chain) {
  const heads: NewHeadEvent[] = [];
  const edits: StateEditedEvent[] = [];
  chain.events.on("newHead", (event) => heads.push(event));
  chain.events.on("stateEdited", (event) => edits.push(event));
  return {heads, edits};
}

describe("re-anchoring a forked chain", () => {
  it("moves the head to the new anchor and R₀′ in one move, removing the old local chain", async () => {
    const source = await buildSource();
    const fork = await openFork(source, await openTempStore());
    const {first, second, transfer} = await forkWithBlocks(source, fork);
    const {heads, edits} = recordEvents(fork.chain);

    const next = await forkAt(source, fork.state, fork.holder, F2);
    const head = await fork.chain.reanchor(next.anchor, next.ancestry);

    const anchorBlock = source.blocks[F2 - 1]!;
    expect([head.number, bytesToHex(head.hash)]).toEqual([F2, bytesToHex(anchorBlock.hash())]);
    expect(fork.chain.head()).toBe(head);
    expect(fork.chain.fork?.anchor.number).toBe(F2);
    expect(fork.chain.fork?.ancestry).toBe(next.ancestry);
    expect(fork.chain.genesisHash).toEqual(anchorBlock.hash());
    expect(fork.chain.initialStateRoot()).toEqual(next.anchor.initialState.root);
    expect(fork.chain.stateRootAfter(head.header)).toEqual(next.anchor.initialState.root);
    // The old chain is out of the canonical index: its anchor, blocks and transactions.
    for (const n of [F, F + 1, F + 2]) expect(await fork.chain.getHeaderByNumber(n), `height ${n}`).toBeUndefined();
    expect(await fork.chain.getTransactionLocation(transfer.hash())).toBeUndefined();
    expect((await fork.chain.getHeaderByNumber(F2))?.hash()).toEqual(anchorBlock.hash());
    // Still stored, out of the index (nothing is pruned).
    expect(await fork.chain.getBlock(first.hash())).toBeDefined();
    // One newHead, the old local blocks removed newest first and their transactions discarded; then stateEdited.
    expect(heads).toHaveLength(1);
    expect(heads[0]?.head).toBe(head);
    expect(heads[0]?.removed.map((b) => bytesToHex(b.hash()))).toEqual(
      [second, first].map((b) => bytesToHex(b.hash())),
    );
    expect(heads[0]?.added).toEqual([]);
    expect(heads[0]?.droppedTransactions).toEqual([]);
    expect(edits.map((e) => [e.head.number, bytesToHex(e.stateRoot)])).toEqual([
      [F2, bytesToHex(next.anchor.initialState.root)],
    ]);
    // The state after the new anchor is the source's at F2, through the new base.
    const sourceState = await source.chain.stateAt(anchorBlock.hash());
    const forkState = await fork.chain.stateAt(anchorBlock.hash());
    const accounts = async (state: typeof forkState) =>
      Promise.all(cows.slice(0, 4).map(async (cow) => (await state.getAccount(cow.address))?.balance));
    expect(await accounts(forkState)).toEqual(await accounts(sourceState));
    expect((await forkState.getAccount(cows[0]!.address))?.nonce).toBe(2n);
  });

  it("extends the new anchor by import's rules on the new fork, and reopens on it", async () => {
    const source = await buildSource();
    const store = await openTempStore();
    const fork = await openFork(source, store);
    await forkWithBlocks(source, fork);
    const next = await forkAt(source, fork.state, fork.holder, F2);
    await fork.chain.reanchor(next.anchor, next.ancestry);
    // cows[0] has sent two transactions by block F2 (blocks 1 and 3); BLOCKHASH(F2 − 1) is the source's.
    const call = signTx(cows[0]!, {
      nonce: 2n,
      to: source.contract,
      gasLimit: 100_000n,
      gasPrice: 1n,
      data: word(F2 - 1),
    });
    const block = await mineOnFork(fork, [call]);
    expect(block.header.number).toBe(F2 + 1);
    const state = await fork.chain.stateAt(block.hash());
    expect(await state.getStorage(source.contract, word(F2 - 1))).toEqual(source.blocks[F2 - 2]!.hash());
    const dir = store.path;
    await store.close();

    const reopenedStore = await openTempStore(dir);
    const stored = await readForkAnchor(reopenedStore, regtest);
    expect(stored && [stored.number, bytesToHex(stored.hash)]).toEqual([F2, bytesToHex(source.blocks[F2 - 1]!.hash())]);
    // The first anchor is refused now; the new one opens at the head it left.
    await expect(openFork(source, reopenedStore)).rejects.toMatchObject({code: ChainErrorCode.FORK_MISMATCH});
    const reopened = await openFork(source, reopenedStore, F2);
    expect([reopened.chain.head().number, bytesToHex(reopened.chain.head().hash)]).toEqual([
      F2 + 1,
      bytesToHex(block.hash()),
    ]);
    expect(reopened.chain.fork?.anchor.number).toBe(F2);
  });

  it("changes nothing when the batch fails, and refuses a chain from a genesis", async () => {
    const source = await buildSource();
    const store = new FailingStore();
    const fork = await openFork(source, store);
    const {second} = await forkWithBlocks(source, fork);
    const {heads, edits} = recordEvents(fork.chain);
    const oldAnchor = fork.chain.fork?.anchor;
    const next = await forkAt(source, fork.state, fork.holder, F2);
    store.failNext = true;
    await expect(fork.chain.reanchor(next.anchor, next.ancestry)).rejects.toThrow("disk full");
    expect(fork.chain.head().hash).toEqual(second.hash());
    expect(fork.chain.fork?.anchor).toBe(oldAnchor);
    expect((await fork.chain.getHeaderByNumber(F + 2))?.hash()).toEqual(second.hash());
    expect(await fork.chain.getHeaderByNumber(F2)).toBeUndefined();
    expect([heads, edits]).toEqual([[], []]);

    await expect(source.chain.reanchor(next.anchor, next.ancestry)).rejects.toMatchObject({
      code: ChainErrorCode.FORK_MISMATCH,
    });
    expect(source.chain.head().number).toBe(F);
  });
});

/** A memory store whose next write can fail (an I/O error inside the batch). */
class FailingStore extends MemoryStore {
  failNext = false;

  override async write(batch: WriteBatch): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error("disk full");
    }
    await super.write(batch);
  }
}
