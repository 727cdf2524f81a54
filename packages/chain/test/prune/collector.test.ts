/**
 * The state collector (docs/operations.md §12): after collections every retained state is whole and
 * nothing else is stored; an entry a block stores again during a collection survives it; snapshot pins;
 * old states answer STATE_PRUNED; archive and pruned switch on a data directory without a resync.
 */

import {regtestGenesis} from "@xchain/chainspec";
import {Bucket, type LevelStore, WriteBatch} from "@xchain/db";
import type {Block} from "@xchain/primitives";
import {StateError, StateErrorCode, verifyState} from "@xchain/state";
import type {ChainBuilder} from "@xchain/test-utils";
import {bytesToHex} from "@xchain/utils";
import {afterEach, describe, expect, it} from "vitest";
import {
  type Chain,
  CollectionPhase,
  ImportResultKind,
  readRetentionRecord,
  rebuildState,
  type StateMode,
  summarizeChainStore,
} from "../../src/index.ts";
import {putRetentionRecord} from "../../src/prune/retentionRecord.ts";
import {cleanup, newBuilder, openTempStore, regtest} from "../helpers.ts";
import {bucketKeys, cowTx, openRetainingChain, reachableKeys, setSlotData, slotsContract} from "./pruneHelpers.ts";

afterEach(cleanup);

const RECIPIENT = Uint8Array.from({length: 20}, (_, i) => i + 1);

/** A chain keeping 4 blocks' states (or every one) on a new store, and a builder with the Slots contract deployed in block 1 (not imported). */
async function deployed(
  mode: StateMode = "pruned",
): Promise<{store: LevelStore; chain: Chain; builder: ChainBuilder; contract: Uint8Array; blocks: Block[]}> {
  const store = await openTempStore();
  const chain = await openRetainingChain(store, 4, mode);
  const builder = await newBuilder();
  const built = await builder.build({transactions: [cowTx(0n, undefined, slotsContract().bytecode)]});
  const contract = built.assembled.result.outcomes[0]!.contractAddress!;
  return {store, chain, builder, contract, blocks: [built.block]};
}

/** Imports `block` and waits for the collection it may start to end. */
async function importAndCollect(chain: Chain, block: Block): Promise<void> {
  const result = await chain.importBlock(block.encode());
  expect(result.kind).toBe(ImportResultKind.IMPORTED_BEST);
  await chain.collectorIdle();
}

/** The state roots after every stored block numbered `from` or above, and the genesis state. */
async function rootsFrom(chain: Chain, blocks: readonly Block[], from: number): Promise<Uint8Array[]> {
  const genesis = await chain.getHeaderByNumber(0);
  return [genesis!.stateRoot, ...blocks.filter((b) => b.header.number >= from).map((b) => b.header.stateRoot)];
}

async function prunedError(promise: Promise<unknown>): Promise<StateError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StateError);
  expect((error as StateError).code).toBe(StateErrorCode.PRUNED);
  return error as StateError;
}

describe("state collection", () => {
  it("keeps every retained state whole, stores nothing else, and answers STATE_PRUNED below the window", async () => {
    const {store, chain, builder, contract, blocks} = await deployed();
    let nonce = 1n;
    for (let i = 0; i < 30; i++) {
      const transactions = [
        cowTx(nonce++, contract, setSlotData(BigInt(i % 5), BigInt(i + 1))),
        cowTx(nonce++, RECIPIENT, new Uint8Array(0), BigInt(i + 1)),
      ];
      blocks.push(await builder.buildBlock({transactions}));
    }
    for (const block of blocks) await importAndCollect(chain, block);

    const record = await readRetentionRecord(store);
    expect(record.phase).toBe(CollectionPhase.Idle);
    expect(record.cutoff).toBeGreaterThanOrEqual(26);
    expect(chain.collectorStats().collections).toBeGreaterThanOrEqual(10);
    // Every state in the window is whole, the marks are gone, and the bucket holds what the kept states reach.
    for (const block of blocks.filter((b) => b.header.number >= chain.oldestStateBlock())) {
      expect((await verifyState(store, block.header.stateRoot)).damage).toBeUndefined();
    }
    expect((await bucketKeys(store, Bucket.stateMark)).size).toBe(0);
    const kept = await reachableKeys(store, await rootsFrom(chain, blocks, record.cutoff));
    expect(await bucketKeys(store, Bucket.stateTrie)).toEqual(kept);

    expect(chain.oldestStateBlock()).toBe(28);
    const old = blocks[10]!;
    const error = await prunedError(chain.stateAt(old.hash()));
    expect(error.type).toEqual({code: StateErrorCode.PRUNED, block: 11, oldestBlock: 28});
    expect(error.message).toContain("the oldest block whose state is served is 28");
    expect(await (await chain.stateAt(blocks[27]!.hash())).getBalance(RECIPIENT)).toBe(378n);
  });

  it("keeps an entry a block stores again while a collection runs, equal to one the collection found unreachable", async () => {
    const {store, chain, builder, contract, blocks} = await deployed();
    let nonce = 1n;
    // Block 2 gives the contract one slot of value 1: its storage trie is one leaf, X.
    blocks.push(await builder.buildBlock({transactions: [cowTx(nonce++, contract, setSlotData(0n, 1n))]}));
    blocks.push(await builder.buildBlock({transactions: [cowTx(nonce++, contract, setSlotData(0n, 2n))]}));
    for (const block of blocks) await importAndCollect(chain, block);
    const x = (await (await chain.stateAt(blocks[1]!.hash())).getAccount(contract))!.storageRoot;
    // Blocks until X is outside the window and collected.
    for (let i = 0; i < 8; i++) await importAndCollect(chain, await builder.buildBlock());
    expect(await store.get(Bucket.stateTrie, x)).toBeUndefined();

    // With retainBlocks 4 a collection starts once the window's start is 2 past the last cutoff: `starts`
    // begins one (its roots exclude X); `again` stores X again and is imported while it runs, queued
    // right behind its start and before any sweep step (those queue once the marking is done).
    const {cutoff} = await readRetentionRecord(store);
    while (chain.head().number < cutoff + 4) await importAndCollect(chain, await builder.buildBlock());
    const deletedBefore = chain.collectorStats().deletedKeys;
    const starts = await builder.buildBlock();
    const again = await builder.buildBlock({transactions: [cowTx(nonce++, contract, setSlotData(0n, 1n))]});
    expect((await chain.importBlock(starts.encode())).kind).toBe(ImportResultKind.IMPORTED_BEST);
    expect((await chain.importBlock(again.encode())).kind).toBe(ImportResultKind.IMPORTED_BEST);
    await chain.collectorIdle();
    expect((await readRetentionRecord(store)).cutoff).toBe(starts.header.number - 3);
    expect(chain.collectorStats().deletedKeys).toBeGreaterThan(deletedBefore);

    expect(await store.get(Bucket.stateTrie, x)).toBeDefined();
    expect((await verifyState(store, again.header.stateRoot)).damage).toBeUndefined();
    expect(await (await chain.stateAt(again.hash())).getStorage(contract, new Uint8Array(32))).toEqual(
      Uint8Array.from({length: 32}, (_, i) => (i === 31 ? 1 : 0)),
    );
  });

  it("keeps a pinned state (a dev snapshot's) until it is released, and the head can be set back to it", async () => {
    const {store, chain, builder, contract, blocks} = await deployed();
    let nonce = 1n;
    blocks.push(await builder.buildBlock({transactions: [cowTx(nonce++, contract, setSlotData(7n, 7n))]}));
    for (const block of blocks) await importAndCollect(chain, block);
    const snapshot = chain.head();
    const root = chain.stateRootAfter(snapshot.header);
    const pin = chain.retainState(root);
    for (let i = 0; i < 12; i++) {
      const transactions = [cowTx(nonce++, contract, setSlotData(7n, BigInt(100 + i)))];
      await importAndCollect(chain, await builder.buildBlock({transactions}));
    }
    expect(chain.oldestStateBlock()).toBeGreaterThan(snapshot.number);
    await prunedError(chain.stateAt(snapshot.hash));
    expect((await verifyState(store, root)).damage).toBeUndefined();
    // Without the pinned root the head cannot go back there; with it, it can, and imports continue on it.
    await prunedError(chain.setHead(snapshot.hash));
    await chain.setHead(snapshot.hash, {stateRoot: root});
    pin.release();
    expect(chain.oldestStateBlock()).toBe(snapshot.number);
    const slot = new Uint8Array(32);
    slot[31] = 7;
    expect((await (await chain.stateAt(snapshot.hash)).getStorage(contract, slot))[31]).toBe(7);
    builder.tip = blocks.at(-1)!;
    const next = await builder.buildBlock({
      transactions: [cowTx(2n, contract, setSlotData(7n, 8n))],
      timestamp: blocks.at(-1)!.header.timestamp + 1000,
    });
    expect((await chain.importBlock(next.encode())).kind).toBe(ImportResultKind.IMPORTED_BEST);

    // Released, the pinned state goes with the next collections like any other.
    for (let i = 0; i < 8; i++) await importAndCollect(chain, await builder.buildBlock());
    expect(await store.get(Bucket.stateTrie, root)).toBeUndefined();
  });

  it("refuses to import a block whose parent's state is older than the window (PARENT_STATE_PRUNED)", async () => {
    const store = await openTempStore();
    const chain = await openRetainingChain(store, 4);
    const builder = await newBuilder();
    const blocks = await builder.buildChain(12);
    for (const block of blocks) await importAndCollect(chain, block);
    const side = await builder.buildBlock({parent: blocks[2]!.hash(), extraData: Uint8Array.of(1)});
    expect((await chain.importBlock(side.encode())).kind).toBe(ImportResultKind.PARENT_STATE_PRUNED);
    expect(await chain.getHeader(side.hash())).toBeUndefined();
  });

  it("prunes an archive data directory reopened pruned, and serves what is left when reopened archive", async () => {
    const {store, chain: archive, builder, contract, blocks} = await deployed("archive");
    let nonce = 1n;
    for (let i = 0; i < 16; i++) {
      blocks.push(await builder.buildBlock({transactions: [cowTx(nonce++, contract, setSlotData(1n, BigInt(i)))]}));
    }
    for (const block of blocks) await importAndCollect(archive, block);
    const everything = await bucketKeys(store, Bucket.stateTrie);
    expect(everything).toEqual(await reachableKeys(store, await rootsFrom(archive, blocks, 0)));
    expect(archive.oldestStateBlock()).toBe(0);
    await archive.stopCollecting();

    const pruned = await openRetainingChain(store, 4);
    await pruned.collectorIdle();
    const record = await readRetentionRecord(store);
    expect(record.cutoff).toBe(14);
    expect(await bucketKeys(store, Bucket.stateTrie)).toEqual(
      await reachableKeys(store, await rootsFrom(pruned, blocks, 14)),
    );
    expect((await bucketKeys(store, Bucket.stateTrie)).size).toBeLessThan(everything.size);
    await pruned.stopCollecting();

    const again = await openRetainingChain(store, 4, "archive");
    expect(again.oldestStateBlock()).toBe(14);
    await prunedError(again.stateAt(blocks[12]!.hash()));
    expect(await (await again.stateAt(blocks[14]!.hash())).getNonce(RECIPIENT)).toBe(0n);
    expect(bytesToHex(again.head().hash)).toBe(bytesToHex(blocks.at(-1)!.hash()));
  });

  it("abandons a collection left half done when db repair rebuilds states (the rebuilt entries carry no marks)", async () => {
    const store = await openTempStore();
    const chain = await openRetainingChain(store, 4);
    const builder = await newBuilder();
    const blocks = await builder.buildChain(6);
    for (const block of blocks) await importAndCollect(chain, block);
    await chain.stopCollecting();
    // As a node killed mid-sweep leaves it, with no mark at all: resumed, the sweep would delete everything.
    const batch = new WriteBatch();
    putRetentionRecord(batch, {phase: CollectionPhase.Sweep, cutoff: 3, prunedBelow: 3, cursor: undefined});
    await store.write(batch);
    expect((await rebuildState(store, 6, {chainspec: regtest, genesis: regtestGenesis})).failure).toBeUndefined();
    expect((await readRetentionRecord(store)).phase).toBe(CollectionPhase.Clear);
    const reopened = await openRetainingChain(store, 4);
    await reopened.collectorIdle();
    expect((await readRetentionRecord(store)).phase).toBe(CollectionPhase.Idle);
    expect((await verifyState(store, blocks[5]!.header.stateRoot)).damage).toBeUndefined();
  });

  it("has `xchain db inspect` name no state below a collection's cutoff, whose root nodes may be left", async () => {
    const {store, chain, builder, blocks} = await deployed("archive");
    for (const block of [...blocks, ...(await builder.buildChain(12))]) await importAndCollect(chain, block);
    // Every root node is stored (archive), as while a sweep has not reached them yet.
    expect((await summarizeChainStore(store, regtest)).oldestState?.number).toBe(0);
    const batch = new WriteBatch();
    putRetentionRecord(batch, {phase: CollectionPhase.Sweep, cutoff: 9, prunedBelow: 9, cursor: undefined});
    await store.write(batch);
    expect((await summarizeChainStore(store, regtest)).oldestState?.number).toBe(9);
  });
});
