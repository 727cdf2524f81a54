/**
 * Dev state edits (`Chain.editHeadState`, `stateRootAfter`, `setHead` with a state root): the head's
 * state edited in one batch, read at once, kept across a restart, and carried by the next block.
 */
import {regtestGenesis} from "@xchain/chainspec";
import {calculateDifficulty} from "@xchain/consensus";
import {Bucket, LevelStore} from "@xchain/db";
import {ChainBuilder} from "@xchain/test-utils";
import {bigIntToFixedBytes, equalBytes} from "@xchain/utils";
import {afterEach, describe, expect, it, vi} from "vitest";
import {
  BlockErrorCode,
  Chain,
  defaultChainOptions,
  ImportResultKind,
  type NewHeadEvent,
  type StateEditedEvent,
} from "../src/index.ts";
import {cleanup, cows, newBuilder, openChain, regtest, signTx, snapshot} from "./helpers.ts";

afterEach(cleanup);

const STRANGER = Uint8Array.from({length: 20}, (_, i) => 0xa0 + i);
const SLOT = bigIntToFixedBytes(7n, 32);
const WORD = bigIntToFixedBytes(0xbeefn, 32);
const CODE = Uint8Array.of(0x60, 0x01, 0x60, 0x00, 0x55, 0x00);

/** A builder keeping its state in `store` (a chain's), so that it can build on the chain's edited states. */
function builderOn(store: LevelStore): Promise<ChainBuilder> {
  return ChainBuilder.create({
    chainspec: regtest,
    genesis: regtestGenesis,
    store,
    difficulty: (h, p) => calculateDifficulty(h, p, regtest),
  });
}

async function overrideRecords(store: LevelStore): Promise<number> {
  let count = 0;
  for await (const _ of store.entries(Bucket.stateOverride)) count++;
  return count;
}

describe("editHeadState", () => {
  it("edits the head's state in one batch, reads it at once and keeps it across a reopen", async () => {
    const first = await openChain();
    const builder = await newBuilder();
    await first.chain.importBlock(await builder.buildBlock());
    const head = first.chain.head();
    const events: StateEditedEvent[] = [];
    first.chain.events.on("stateEdited", (e) => events.push(e));
    const writes = vi.spyOn(first.store, "write");

    const seen = await first.chain.editHeadState(async (state) => {
      await state.setBalance(STRANGER, 10n ** 21n);
      await state.setNonce(STRANGER, 5n);
      await state.setCode(STRANGER, CODE);
      await state.setStorage(STRANGER, SLOT, WORD);
      return state.getAccount(STRANGER);
    });

    expect(seen).toEqual({nonce: 5n, balance: 10n ** 21n, code: CODE});
    expect(writes).toHaveBeenCalledTimes(1);
    const root = first.chain.stateRootAfter(head.header);
    expect(equalBytes(root, head.header.stateRoot)).toBe(false);
    expect(events).toEqual([{head, stateRoot: root}]);
    const state = await first.chain.stateAt(head.hash);
    expect(state.root).toEqual(root);
    expect(await state.getBalance(STRANGER)).toBe(10n ** 21n);
    expect(await state.getNonce(STRANGER)).toBe(5n);
    expect(await state.getCode(STRANGER)).toEqual(CODE);
    expect(await state.getStorage(STRANGER, SLOT)).toEqual(WORD);
    await first.store.close();

    const store = await LevelStore.open(first.dir);
    try {
      const chain = await Chain.open(defaultChainOptions, {store, chainspec: regtest, genesis: regtestGenesis});
      expect(chain.stateRootAfter(chain.head().header)).toEqual(root);
      expect(await (await chain.stateAt(head.hash)).getBalance(STRANGER)).toBe(10n ** 21n);
    } finally {
      await store.close();
    }
  });

  it("writes nothing when the edit throws, and an edit that changes nothing still answers", async () => {
    const {chain, store} = await openChain();
    const before = await snapshot(store);
    await expect(
      chain.editHeadState(async (state) => {
        await state.setBalance(STRANGER, 1n);
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(await snapshot(store)).toEqual(before);
    expect(chain.stateRootAfter(chain.head().header)).toBe(chain.head().header.stateRoot);

    expect(await chain.editHeadState(async (state) => state.getStorage(STRANGER, SLOT))).toEqual(new Uint8Array(32));
    expect(chain.stateRootAfter(chain.head().header)).toEqual(chain.head().header.stateRoot);
    expect(await overrideRecords(store)).toBe(0);
  });

  it("imports a block built on the edited state, whose state root carries the edit", async () => {
    const {chain, store} = await openChain();
    // The builder shares the chain's store, so it can build on the edited state.
    const builder = await builderOn(store);
    const built = await builder.buildBlock();
    await chain.importBlock(built);
    const [alice] = cows;
    await chain.editHeadState((state) => state.setNonce(alice!.address, 7n));
    const edited = chain.stateRootAfter(chain.head().header);

    const transfer = signTx(alice!, {nonce: 7n, to: STRANGER, value: 3n});
    const child = await builder.buildBlock({parent: built, transactions: [transfer], parentStateRoot: edited});
    expect(await chain.importBlock(child)).toMatchObject({kind: ImportResultKind.IMPORTED_BEST, number: 2});
    expect(chain.stateRootAfter(chain.head().header)).toBe(child.header.stateRoot);
    const state = await chain.stateAt(child.hash());
    expect(await state.getNonce(alice!.address)).toBe(8n);
    expect(await state.getBalance(STRANGER)).toBe(3n);

    // The same block built on the header's state (what a peer without the edit computes) is refused here.
    const onHeader = await builder.buildBlock({parent: built, timestamp: child.header.timestamp + 1});
    expect(await chain.importBlock(onHeader)).toMatchObject({
      kind: ImportResultKind.INVALID_BLOCK,
      error: {type: {code: BlockErrorCode.STATE_ROOT_MISMATCH}},
    });
  });
});

describe("setHead with a state root", () => {
  it("restores the state a snapshot saw, in the batch of the head's move, and tells stateEdited", async () => {
    const {chain, store} = await openChain();
    const builder = await builderOn(store);
    const b1 = await builder.buildBlock();
    await chain.importBlock(b1);
    // A snapshot at block 1 sees its state before the edit.
    const snapshotRoot = chain.stateRootAfter(chain.head().header);
    await chain.editHeadState((state) => state.setBalance(STRANGER, 9n));
    const editedRoot = chain.stateRootAfter(chain.head().header);
    const b2 = await builder.buildBlock({parentStateRoot: editedRoot});
    expect(await chain.importBlock(b2)).toMatchObject({kind: ImportResultKind.IMPORTED_BEST});
    const heads: NewHeadEvent[] = [];
    const edits: StateEditedEvent[] = [];
    chain.events.on("newHead", (e) => heads.push(e));
    chain.events.on("stateEdited", (e) => edits.push(e));
    const writes = vi.spyOn(store, "write");

    // Back to block 1 as the snapshot saw it: the move and the override's deletion in one batch.
    await chain.setHead(b1.hash(), {stateRoot: snapshotRoot});
    expect(writes).toHaveBeenCalledTimes(1);
    expect(chain.head().number).toBe(1);
    expect(chain.stateRootAfter(chain.head().header)).toEqual(b1.header.stateRoot);
    expect(await overrideRecords(store)).toBe(0);
    expect(heads).toHaveLength(1);
    expect(edits).toEqual([{head: chain.head(), stateRoot: snapshotRoot}]);
    expect(await (await chain.stateAt(b1.hash())).getBalance(STRANGER)).toBe(0n);

    // The same head, the edited state again; then without a state root the target keeps its own.
    await chain.setHead(b1.hash(), {stateRoot: editedRoot});
    expect(chain.stateRootAfter(chain.head().header)).toEqual(editedRoot);
    expect(edits).toHaveLength(2);
    await chain.setHead(b1.hash());
    expect(edits).toHaveLength(2);
    expect(await (await chain.stateAt(b1.hash())).getBalance(STRANGER)).toBe(9n);
  });

  it("refuses a state root that is not stored, writing nothing", async () => {
    const {chain, store} = await openChain();
    const before = await snapshot(store);
    await expect(chain.setHead(chain.head().hash, {stateRoot: new Uint8Array(32).fill(9)})).rejects.toMatchObject({
      type: {code: "STATE_ROOT_MISSING"},
    });
    expect(await snapshot(store)).toEqual(before);
  });
});
