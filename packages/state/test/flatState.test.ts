/**
 * The flat state against the trie (docs/operations.md §13): random blocks of account and storage
 * writes, deletions and reverted writes, jumps between earlier states (reorganizations, reverts),
 * restarts of the generation interleaved with head changes; after every step each flat entry is the
 * trie's and every account and slot read through the flat path equals the trie walk's answer.
 */
import {Bucket, type LevelStore, WriteBatch} from "@xchain/db";
import {bytesToHex, concatBytes, equalBytes, keccak256} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {decodeFlatMeta, FLAT_META_KEY} from "../src/flat/flatMeta.ts";
import {storageRootOf} from "../src/flat/trieDiff.ts";
import {defaultStateOptions, EMPTY_TRIE_ROOT, type FlatStateWriter, StateDatabase} from "../src/index.ts";
import {lookupTrieValue} from "../src/trieLookup.ts";
import {addressOf, common, openStore, slotOf} from "./helpers.ts";
import {randomOp, runBlock} from "./randomOps.ts";

/** A seeded generator (mulberry32: randomOps' LCG repeats its low bits, which `% n` keeps). */
function prng(seed: number): (n: number) => number {
  let a = seed;
  return (n) => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}

const ADDRESSES = 40;
const SLOTS = 12;

/** Writes a change the way the chain does: the flat state's ops in the batch of the head's move. */
async function move(
  store: LevelStore,
  writer: FlatStateWriter,
  from: Uint8Array,
  to: Uint8Array,
  writes = new WriteBatch(),
) {
  const change = await writer.headChange(from, to, writes.ops);
  await store.write(writes.append(change.ops));
  writer.applied(change);
}

/** One generation step of up to `limit` entries; false when there was none to run. */
async function generationStep(store: LevelStore, writer: FlatStateWriter, limit: number): Promise<boolean> {
  const step = await writer.prepareStep(limit);
  if (step === undefined) return false;
  const ops = writer.commitStep(step);
  if (ops) {
    await store.write(new WriteBatch().append(ops));
    writer.applied(step);
  }
  return true;
}

/** The trie's value under a flat key (32-byte account, 64-byte storage) at `root`. */
async function trieValue(state: StateDatabase, root: Uint8Array, key: Uint8Array): Promise<Uint8Array | undefined> {
  const nodes = (
    state as unknown as {nodes: {passThrough(): Parameters<typeof lookupTrieValue>[0]}}
  ).nodes.passThrough();
  const account = await lookupTrieValue(nodes, root, key.subarray(0, 32));
  if (key.length === 32) return account;
  return lookupTrieValue(nodes, storageRootOf(account), key.subarray(32));
}

/**
 * The flat state is exact for `head` as far as it claims: every entry up to the marker (all when
 * complete) is the trie's, and when complete, reads through the flat path equal the trie walk's.
 */
async function expectExact(store: LevelStore, state: StateDatabase, head: Uint8Array): Promise<void> {
  const meta = decodeFlatMeta(await store.get(Bucket.flatState, FLAT_META_KEY));
  if (meta === undefined || !equalBytes(meta.root, head)) return;
  for await (const [key, value] of store.entries(Bucket.flatState, {gte: Uint8Array.of(0)})) {
    if (!meta.complete && (meta.marker === undefined || bytesToHex(key) > bytesToHex(meta.marker))) break;
    expect(bytesToHex(value), `flat entry ${bytesToHex(key)}`).toBe(
      bytesToHex((await trieValue(state, head, key)) ?? new Uint8Array()),
    );
  }
  if (!meta.complete) return;
  // Readers without caches: every read is a flat read or a walk.
  const flat = new StateDatabase({...defaultStateOptions, readerCacheBytes: 0, nodeCacheBytes: 0}, {store});
  const walk = new StateDatabase({...defaultStateOptions, readerCacheBytes: 0, flatState: false}, {store});
  const viaFlat = await flat.reader(head, common);
  const viaTrie = await walk.reader(head, common);
  for (let a = 0; a < ADDRESSES; a++) {
    const address = addressOf(a);
    expect(await viaFlat.getAccount(address)).toEqual(await viaTrie.getAccount(address));
    for (let s = 0; s < SLOTS; s++) {
      expect(bytesToHex(await viaFlat.getStorage(address, slotOf(s)))).toBe(
        bytesToHex(await viaTrie.getStorage(address, slotOf(s))),
      );
      const key = concatBytes(keccak256(address), keccak256(slotOf(s)));
      const stored = await store.get(Bucket.flatState, key);
      expect(stored && bytesToHex(stored)).toBe(
        (await trieValue(state, head, key)) && bytesToHex((await trieValue(state, head, key)) as Uint8Array),
      );
    }
  }
  // The empty state needs no read at all: its reads count as the trie's.
  const reads = ADDRESSES * (1 + SLOTS);
  expect(flat.readCounts()).toEqual(
    equalBytes(head, EMPTY_TRIE_ROOT) ? {flat: 0, trie: reads} : {flat: reads, trie: 0},
  );
  expect(walk.readCounts().flat).toBe(0);
}

/** A stored state of `ops` random changes on the empty one, the flat state to generate for it, and the session (open on it). */
async function headOfRandomBlock(store: LevelStore, state: StateDatabase, random: (n: number) => number, ops: number) {
  const writer = (await state.openFlatWriter()) as FlatStateWriter;
  const session = await state.openSession(EMPTY_TRIE_ROOT, common);
  await runBlock(
    session.stateManager,
    Array.from({length: ops}, () => randomOp(random, 1)),
    [],
  );
  const head = await session.commit();
  await store.write(new WriteBatch().append(head.writes));
  writer.follow(head.root);
  return {writer, session, head};
}

describe("flat state", () => {
  it("stays exact over random blocks, jumps between states and restarted generations", async () => {
    const store = await openStore();
    const state = new StateDatabase(defaultStateOptions, {store});
    const writer = (await state.openFlatWriter()) as FlatStateWriter;
    writer.follow(EMPTY_TRIE_ROOT);
    const random = prng(2811);
    const roots = [EMPTY_TRIE_ROOT];
    let head = EMPTY_TRIE_ROOT;
    let completeChecks = 0;
    for (let step = 1; step <= 80; step++) {
      const action = random(20);
      if (action < 14 || roots.length < 4) {
        const session = await state.openSession(head, common);
        const ops = Array.from({length: 4 + random(16)}, () => randomOp(random, step));
        await runBlock(session.stateManager, ops, [randomOp(random, step)]);
        const commit = await session.commit();
        session.release();
        await move(store, writer, head, commit.root, new WriteBatch().append(commit.writes));
        head = commit.root;
        roots.push(head);
      } else if (action < 18) {
        // A reorganization or a revert: the head goes back to an earlier state.
        const to = roots[random(roots.length)] as Uint8Array;
        await move(store, writer, head, to);
        head = to;
      } else {
        // A change the flat state cannot follow (named from a state it does not hold): generated again.
        await move(store, writer, EMPTY_TRIE_ROOT, head);
        if (!equalBytes(head, EMPTY_TRIE_ROOT)) expect(writer.status()?.phase).toBe("generating");
      }
      // Generation in steps of a few entries, interleaved with the head's moves.
      for (let i = random(3); i > 0; i--) await generationStep(store, writer, 1 + random(40));
      await expectExact(store, state, head);
      if (writer.status()?.phase === "complete") completeChecks++;
    }
    while (await generationStep(store, writer, 64));
    expect(writer.status()?.phase).toBe("complete");
    await expectExact(store, state, head);
    expect(completeChecks).toBeGreaterThan(20);
    expect(writer.status()?.restarts).toBeGreaterThan(1);
  });

  it("drops a generation step prepared before the head moved", async () => {
    const store = await openStore();
    const state = new StateDatabase(defaultStateOptions, {store});
    const random = prng(7);
    const {writer, session, head: first} = await headOfRandomBlock(store, state, random, 30);
    const step = await writer.prepareStep(5);
    await runBlock(
      session.stateManager,
      Array.from({length: 10}, () => randomOp(random, 2)),
      [],
    );
    const second = await session.commit();
    await move(store, writer, first.root, second.root, new WriteBatch().append(second.writes));
    expect(step && writer.commitStep(step)).toBeUndefined();
    while (await generationStep(store, writer, 7));
    await expectExact(store, state, second.root);
    expect(writer.status()?.phase).toBe("complete");
  });

  it("is not read at a root it does not describe, nor while generating", async () => {
    const store = await openStore();
    const state = new StateDatabase({...defaultStateOptions, readerCacheBytes: 0, nodeCacheBytes: 0}, {store});
    const writer = (await state.openFlatWriter()) as FlatStateWriter;
    const session = await state.openSession(EMPTY_TRIE_ROOT, common);
    await runBlock(session.stateManager, [randomOp(prng(3), 1), randomOp(prng(4), 1)], []);
    const commit = await session.commit();
    await store.write(new WriteBatch().append(commit.writes));
    writer.follow(commit.root);
    await generationStep(store, writer, 1);
    expect(writer.status()?.phase).toBe("generating");
    const reader = await state.reader(commit.root, common);
    await reader.getAccount(addressOf(1));
    expect(state.readCounts()).toEqual({flat: 0, trie: 1});
    while (await generationStep(store, writer, 1));
    await reader.getAccount(addressOf(2));
    expect(state.readCounts()).toEqual({flat: 1, trie: 1});
    // Another root (the empty state's reader): never from the flat state.
    await (await state.reader(EMPTY_TRIE_ROOT, common)).getAccount(addressOf(1));
    expect(state.readCounts()).toEqual({flat: 1, trie: 2});
  });

  it("serves a staged state (the pending block's) from its diff over the flat state", async () => {
    const store = await openStore();
    const state = new StateDatabase({...defaultStateOptions, readerCacheBytes: 0, nodeCacheBytes: 0}, {store});
    const random = prng(11);
    const {writer, session} = await headOfRandomBlock(store, state, random, 40);
    while (await generationStep(store, writer, 64));
    // The pending block: computed on the head, staged, not stored.
    await runBlock(
      session.stateManager,
      Array.from({length: 30}, () => randomOp(random, 2)),
      [],
    );
    const pending = await session.commit();
    state.stageUnpersisted(pending);
    const viaFlat = await state.reader(pending.root, common);
    const walk = new StateDatabase({...defaultStateOptions, readerCacheBytes: 0, flatState: false}, {store});
    walk.stageUnpersisted(pending);
    const viaTrie = await walk.reader(pending.root, common);
    for (let a = 0; a < ADDRESSES; a++) {
      expect(await viaFlat.getAccount(addressOf(a))).toEqual(await viaTrie.getAccount(addressOf(a)));
      for (let s = 0; s < SLOTS; s++) {
        expect(bytesToHex(await viaFlat.getStorage(addressOf(a), slotOf(s)))).toBe(
          bytesToHex(await viaTrie.getStorage(addressOf(a), slotOf(s))),
        );
      }
    }
    // The paths the pending block changed are in memory (its unstored nodes): those the trie answers
    // without waiting; every other read is the flat state's.
    const {flat, trie} = state.readCounts();
    expect(flat + trie).toBe(ADDRESSES * (1 + SLOTS));
    expect(flat).toBeGreaterThan(ADDRESSES);
  });
});
