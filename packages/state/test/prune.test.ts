/**
 * The steps of a state collection (docs/operations.md §12): a mark walk stopped after any batch and run
 * again leaves the state whole-marked, and the sweep then keeps exactly what the kept root reaches.
 */
import {Address} from "@ethereumjs/util";
import {Bucket, type LevelStore, WriteBatch} from "@xchain/db";
import {bytesToHex, hexToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {
  clearMarksStep,
  defaultStateOptions,
  EMPTY_TRIE_ROOT,
  isMarkOf,
  markState,
  markStates,
  markStateWrites,
  markValue,
  nodeReferences,
  StateDatabase,
  StateMark,
  sweepDeletes,
  sweepScan,
  TrieKind,
  verifyState,
} from "../src/index.ts";
import {addressOf, common, openStore, persist, setAccount, slotOf} from "./helpers.ts";

/** A state on `root` where accounts `from`..`to` have `balance` and account 0 stores `to` slots. */
async function commitState(state: StateDatabase, store: LevelStore, root: Uint8Array, balance: bigint, to: number) {
  const session = await state.openSession(root, common, {transient: true});
  const sm = session.stateManager;
  for (let i = 0; i < to; i++) await setAccount(sm, addressOf(i), balance + BigInt(i));
  await sm.putCode(new Address(addressOf(0)), Uint8Array.of(0x60, 0x00, Number(balance % 256n)));
  for (let i = 0; i < to; i++)
    await sm.putStorage(new Address(addressOf(0)), slotOf(i), Uint8Array.of(Number(balance % 200n) + 1, i));
  const commit = await session.commit();
  await persist(store, commit);
  return commit;
}

async function count(store: LevelStore, bucket: Bucket): Promise<number> {
  let n = 0;
  for await (const _ of store.entries(bucket)) n++;
  return n;
}

/** The keys of the WHOLE marks in the store. */
async function wholeMarks(store: LevelStore): Promise<Set<string>> {
  const marks = new Set<string>();
  for await (const [key, value] of store.entries(Bucket.stateMark))
    if (value[0] === StateMark.WHOLE) marks.add(bytesToHex(key));
  return marks;
}

async function clearMarks(store: LevelStore): Promise<void> {
  const batch = new WriteBatch();
  for await (const [key] of store.entries(Bucket.stateMark)) batch.del(Bucket.stateMark, key);
  await store.write(batch);
}

/** The entries a WHOLE mark on `hex` vouches for: the node's children and codes (the code keys with their "c" prefix). */
async function referencedBy(store: LevelStore, hex: string, kinds: Map<string, TrieKind>): Promise<string[]> {
  const node = await store.get(Bucket.stateTrie, hexToBytes(hex));
  const kind = kinds.get(hex);
  if (node === undefined || kind === undefined) return [];
  const {children, codes} = nodeReferences(node, kind);
  for (const [child, childKind] of children) kinds.set(bytesToHex(child), childKind);
  return [...children.map(([child]) => bytesToHex(child)), ...codes.map((code) => `63${bytesToHex(code)}`)];
}

/** Every trie node's kind under `root`, by a plain walk (codes have none). */
async function kindsUnder(store: LevelStore, root: Uint8Array): Promise<Map<string, TrieKind>> {
  const kinds = new Map([[bytesToHex(root), TrieKind.Account]]);
  const stack = [bytesToHex(root)];
  for (let hex = stack.pop(); hex !== undefined; hex = stack.pop()) {
    for (const child of await referencedBy(store, hex, kinds)) if (kinds.has(child)) stack.push(child);
  }
  return kinds;
}

/** Two states sharing most nodes; the kept one has three accounts with equal storage (one storage root met thrice). */
async function twoStates(store: LevelStore) {
  const state = new StateDatabase(defaultStateOptions, {store});
  const old = await commitState(state, store, EMPTY_TRIE_ROOT, 1_000n, 150);
  const base = await commitState(state, store, old.root, 2_000n, 90);
  const session = await state.openSession(base.root, common, {transient: true});
  for (const n of [100, 101, 102])
    for (let i = 0; i < 20; i++)
      await session.stateManager.putStorage(new Address(addressOf(n)), slotOf(i), Uint8Array.of(7, i));
  const kept = await session.commit();
  await persist(store, kept);
  return {old: old.root, kept: kept.root};
}

describe("state collection steps", () => {
  it("marks in chunks exactly what the walk reading one node at a time marks", async () => {
    const store = await openStore();
    const {old, kept} = await twoStates(store);
    const walk = async (readNodes: number) => {
      await clearMarks(store);
      const control = {batchNodes: 40, readNodes, pause: async () => undefined};
      const marked = [await markState(store, kept, control), await markState(store, old, control)];
      return {marked, marks: await wholeMarks(store)};
    };
    const oneByOne = await walk(1);
    const reached = new Set<string>();
    for (const root of [kept, old]) {
      const kinds = await kindsUnder(store, root);
      for (const hex of kinds.keys()) reached.add(hex);
      for (const hex of kinds.keys()) for (const ref of await referencedBy(store, hex, kinds)) reached.add(ref);
    }
    expect([...oneByOne.marks].sort()).toEqual([...reached].sort());
    for (const readNodes of [3, 64, 4096]) {
      const chunked = await walk(readNodes);
      expect([...chunked.marks].sort()).toEqual([...oneByOne.marks].sort());
      expect(chunked.marked).toEqual(oneByOne.marked);
    }
    // Both roots in one walk: the same marks, each node marked once.
    await clearMarks(store);
    const together = await markStates(store, [kept, EMPTY_TRIE_ROOT, old, kept], {
      batchNodes: 40,
      pause: async () => {},
    });
    expect([...(await wholeMarks(store))].sort()).toEqual([...oneByOne.marks].sort());
    expect(together).toBe(oneByOne.marked[0]! + oneByOne.marked[1]!);
  });

  it("leaves only marks whose every reference is marked when stopped after any batch, and the next walk completes them", async () => {
    const store = await openStore();
    const {kept} = await twoStates(store);
    const kinds = await kindsUnder(store, kept);
    await markState(store, kept, {batchNodes: 32, pause: async () => undefined});
    const complete = await wholeMarks(store);
    for (let stopAfter = 1; ; stopAfter++) {
      await clearMarks(store);
      const stop = new AbortController();
      let batches = 0;
      const pause = async () => {
        if (++batches === stopAfter) stop.abort();
      };
      const control = {batchNodes: 32, readNodes: 16, pause, signal: stop.signal};
      const stopped = await markState(store, kept, control).then(
        () => false,
        () => true,
      );
      const marks = await wholeMarks(store);
      for (const hex of marks)
        for (const ref of await referencedBy(store, hex, kinds)) expect(marks.has(ref), `${hex} -> ${ref}`).toBe(true);
      await markState(store, kept, {batchNodes: 32, readNodes: 16, pause: async () => undefined});
      expect([...(await wholeMarks(store))].sort()).toEqual([...complete].sort());
      if (!stopped) break;
    }
  });

  it("resumes a mark walk stopped after any batch, and the sweep keeps exactly the marked state", async () => {
    const store = await openStore();
    const state = new StateDatabase(defaultStateOptions, {store});
    const old = await commitState(state, store, EMPTY_TRIE_ROOT, 1_000n, 200);
    const kept = await commitState(state, store, old.root, 2_000n, 120);
    const whole = await verifyState(store, kept.root);
    expect(whole.damage).toBeUndefined();
    expect(await count(store, Bucket.stateTrie)).toBeGreaterThan(whole.nodes + whole.codes);

    // Stopped after the third batch, as by a crash: what it marked stays, and the next walk completes it.
    const stop = new AbortController();
    let batches = 0;
    const pause = async () => {
      if (++batches === 3) stop.abort();
    };
    await expect(markState(store, kept.root, {batchNodes: 16, pause, signal: stop.signal})).rejects.toThrow();
    const marked = await count(store, Bucket.stateMark);
    expect(marked).toBeGreaterThanOrEqual(48);
    const rest = await markState(store, kept.root, {batchNodes: 16, pause: async () => undefined});
    expect(rest).toBeLessThan(whole.nodes);
    expect(await markState(store, kept.root, {batchNodes: 16, pause: async () => undefined})).toBe(0);

    let after: Uint8Array | undefined;
    do {
      const step = sweepDeletes(await sweepScan(store, after, 50), new Set());
      await store.write(step.batch);
      after = step.last;
    } while (after !== undefined);
    expect((await verifyState(store, kept.root)).damage).toBeUndefined();
    expect(await count(store, Bucket.stateTrie)).toBe(whole.nodes + whole.codes);
    expect(await store.get(Bucket.stateTrie, old.root)).toBeUndefined();

    for (let more = true; more; ) {
      const step = await clearMarksStep(store, 100);
      await store.write(step.batch);
      more = step.last !== undefined;
    }
    expect(await count(store, Bucket.stateMark)).toBe(0);
  });

  it("offers a turn before every read of a chunk, and marks the same with or without", async () => {
    const store = await openStore();
    const {kept} = await twoStates(store);
    const without = await markState(store, kept, {batchNodes: 40, readNodes: 16, pause: async () => undefined});
    const marks = await wholeMarks(store);
    await clearMarks(store);
    let turns = 0;
    let pauses = 0;
    const control = {
      batchNodes: 40,
      readNodes: 16,
      pause: async () => void pauses++,
      turn: async () => void turns++,
    };
    expect(await markState(store, kept, control)).toBe(without);
    expect(turns).toBeGreaterThanOrEqual(Math.ceil(without / 16));
    expect(turns).toBeGreaterThan(pauses);
    expect([...(await wholeMarks(store))].sort()).toEqual([...marks].sort());
  });

  it("counts a mark of an earlier epoch as none: the next collection walks below it, sweeps by its own and deletes the stale marks", async () => {
    const store = await openStore();
    const {old, kept} = await twoStates(store);
    const whole = await verifyState(store, kept);
    const sweep = async (epoch: number) => {
      let after: Uint8Array | undefined;
      do {
        const step = sweepDeletes(await sweepScan(store, after, 37, epoch), new Set());
        await store.write(step.batch);
        after = step.last;
      } while (after !== undefined);
    };
    // Epoch 1 keeps both states; its marks stay.
    const control = {batchNodes: 40, pause: async () => undefined};
    await markStates(store, [kept, old], {...control, epoch: 1});
    await sweep(1);
    const both = await count(store, Bucket.stateTrie);
    expect(await count(store, Bucket.stateMark)).toBe(both);
    // A stray mark of no entry (as a forked state's code leaves) is swept as stale too.
    await store.write(new WriteBatch().put(Bucket.stateMark, Uint8Array.of(0xff, 1), markValue(StateMark.WHOLE, 1)));
    // Epoch 2 keeps `kept` only: the epoch-1 WHOLE marks do not stop its walk, and its sweep deletes
    // what epoch 1 marked and epoch 2 did not, with those marks.
    const marked = await markState(store, kept, {...control, epoch: 2});
    expect(marked).toBe(whole.nodes);
    await sweep(2);
    expect(await count(store, Bucket.stateTrie)).toBe(whole.nodes + whole.codes);
    expect(await count(store, Bucket.stateTrie)).toBeLessThan(both);
    expect((await verifyState(store, kept)).damage).toBeUndefined();
    expect(await store.get(Bucket.stateTrie, old)).toBeUndefined();
    expect(await count(store, Bucket.stateMark)).toBe(whole.nodes + whole.codes);
    for await (const [, value] of store.entries(Bucket.stateMark))
      expect(isMarkOf(value, 2, StateMark.WHOLE)).toBe(true);
    // A one-byte mark (written before epochs) is of epoch 0; epochs past 255 take more bytes.
    expect(isMarkOf(Uint8Array.of(StateMark.WHOLE), 0, StateMark.WHOLE)).toBe(true);
    expect(isMarkOf(markValue(StateMark.KEPT, 258), 258)).toBe(true);
    expect([...markValue(StateMark.KEPT, 258)]).toEqual([StateMark.KEPT, 1, 2]);
    expect(isMarkOf(markValue(StateMark.KEPT, 258), 258, StateMark.WHOLE)).toBe(false);
    expect(isMarkOf(markValue(StateMark.WHOLE, 2), 1)).toBe(false);
  });

  it("marks the state entries a batch stores, and nothing else", () => {
    const batch = new WriteBatch().put(Bucket.stateTrie, Uint8Array.of(1, 2), Uint8Array.of(3));
    batch.put(Bucket.header, Uint8Array.of(4), Uint8Array.of(5)).del(Bucket.stateTrie, Uint8Array.of(6));
    const marks = markStateWrites(batch.ops);
    expect(marks.map((op) => [op.type, bytesToHex(op.key), op.type === "put" ? [...op.value] : []])).toEqual([
      ["put", bytesToHex(Uint8Array.of(Bucket.stateMark, 1, 2)), [StateMark.KEPT]],
    ]);
  });

  it("does not delete an entry stored again, with its mark, between the scan and the deletes", async () => {
    const store = await openStore();
    const key = Uint8Array.from({length: 32}, (_, i) => i);
    const garbage = Uint8Array.from({length: 32}, (_, i) => 255 - i);
    await store.write(
      new WriteBatch().put(Bucket.stateTrie, key, Uint8Array.of(1)).put(Bucket.stateTrie, garbage, Uint8Array.of(2)),
    );
    const scan = await sweepScan(store, undefined, 10);
    expect(scan.unmarked.map(bytesToHex).sort()).toEqual([bytesToHex(key), bytesToHex(garbage)].sort());
    // A block stores the same entry again while the collection runs (its batch marks it): the keys stored since the scan name it.
    const batch = new WriteBatch().put(Bucket.stateTrie, key, Uint8Array.of(1));
    await store.write(batch.append(markStateWrites(batch.ops)));
    const step = sweepDeletes(scan, new Set([bytesToHex(key)]));
    await store.write(step.batch);
    expect(step.deleted).toBe(1);
    expect(await store.get(Bucket.stateTrie, key)).toEqual(Uint8Array.of(1));
    expect(await store.get(Bucket.stateTrie, garbage)).toBeUndefined();
  });
});
