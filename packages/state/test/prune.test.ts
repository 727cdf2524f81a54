/**
 * The steps of a state collection (docs/operations.md §12): a mark walk stopped after any batch and run
 * again leaves the state whole-marked, and the sweep then keeps exactly what the kept root reaches.
 */
import {Address} from "@ethereumjs/util";
import {Bucket, type LevelStore, WriteBatch} from "@xchain/db";
import {bytesToHex} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {
  clearMarksStep,
  defaultStateOptions,
  EMPTY_TRIE_ROOT,
  markState,
  markStateWrites,
  StateDatabase,
  StateMark,
  sweepDeletes,
  sweepScan,
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

describe("state collection steps", () => {
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
      const step = await sweepDeletes(store, await sweepScan(store, after, 50));
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

  it("marks the state entries a batch stores, and nothing else", () => {
    const batch = new WriteBatch().put(Bucket.stateTrie, Uint8Array.of(1, 2), Uint8Array.of(3));
    batch.put(Bucket.header, Uint8Array.of(4), Uint8Array.of(5)).del(Bucket.stateTrie, Uint8Array.of(6));
    const marks = markStateWrites(batch.ops);
    expect(marks.map((op) => [op.type, bytesToHex(op.key), op.type === "put" ? [...op.value] : []])).toEqual([
      ["put", bytesToHex(Uint8Array.of(Bucket.stateMark, 1, 2)), [StateMark.KEPT]],
    ]);
  });

  it("does not delete an entry a write stored again, with its mark, between the scan and the deletes", async () => {
    const store = await openStore();
    const key = Uint8Array.from({length: 32}, (_, i) => i);
    const garbage = Uint8Array.from({length: 32}, (_, i) => 255 - i);
    await store.write(
      new WriteBatch().put(Bucket.stateTrie, key, Uint8Array.of(1)).put(Bucket.stateTrie, garbage, Uint8Array.of(2)),
    );
    const scan = await sweepScan(store, undefined, 10);
    expect(scan.unmarked.map(bytesToHex).sort()).toEqual([bytesToHex(key), bytesToHex(garbage)].sort());
    // A block stores the same entry again while the collection runs: its batch marks it.
    const batch = new WriteBatch().put(Bucket.stateTrie, key, Uint8Array.of(1));
    await store.write(batch.append(markStateWrites(batch.ops)));
    const step = await sweepDeletes(store, scan);
    await store.write(step.batch);
    expect(step.deleted).toBe(1);
    expect(await store.get(Bucket.stateTrie, key)).toEqual(Uint8Array.of(1));
    expect(await store.get(Bucket.stateTrie, garbage)).toBeUndefined();
  });
});
