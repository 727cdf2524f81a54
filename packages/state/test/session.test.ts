import {Address} from "@ethereumjs/util";
import {Bucket} from "@xchain/db";
import {describe, expect, it} from "vitest";
import {defaultStateOptions, EMPTY_TRIE_ROOT, StateDatabase, StateError, StateErrorCode} from "../src/index.ts";
import {addressOf, common, dumpStateBucket, openStore, persist, setAccount} from "./helpers.ts";

/** Runs one "block": `count` accounts get `balance`, inside a block-wide checkpoint. */
async function runBlock(state: StateDatabase, root: Uint8Array, balance: bigint, count = 5) {
  const session = await state.openSession(root, common);
  const sm = session.stateManager;
  await sm.checkpoint();
  for (let i = 0; i < count; i++) await setAccount(sm, addressOf(i), balance + BigInt(i));
  await sm.commit();
  return {session, commit: await session.commit()};
}

describe("StateSession", () => {
  it("keeps its writes out of the store until the caller writes the batch", async () => {
    const store = await openStore();
    const state = new StateDatabase(defaultStateOptions, {store});
    const {commit} = await runBlock(state, EMPTY_TRIE_ROOT, 100n);

    expect(commit.writes.length).toBeGreaterThan(0);
    expect(commit.writes.every((op) => op.type === "put" && op.key[0] === Bucket.stateTrie)).toBe(true);
    expect(await dumpStateBucket(store)).toEqual([]);
    expect(await state.hasRoot(commit.root)).toBe(false);
    await expect(state.reader(commit.root, common)).rejects.toMatchObject({code: StateErrorCode.ROOT_MISSING});

    await persist(store, commit);
    expect(await state.hasRoot(commit.root)).toBe(true);
    const reader = await state.reader(commit.root, common);
    expect(await reader.getBalance(addressOf(3))).toBe(103n);
    const next = await state.openSession(commit.root, common);
    expect((await next.stateManager.getAccount(new Address(addressOf(4))))?.balance).toBe(104n);
  });

  it("leaves the store byte-for-byte unchanged when abandoned", async () => {
    const store = await openStore();
    const state = new StateDatabase(defaultStateOptions, {store});
    const genesis = await runBlock(state, EMPTY_TRIE_ROOT, 100n);
    await persist(store, genesis.commit);
    const before = await dumpStateBucket(store);

    const abandoned = await runBlock(state, genesis.commit.root, 7n, 50);
    expect(abandoned.commit.writes.length).toBeGreaterThan(0);
    expect(await dumpStateBucket(store)).toEqual(before);
    expect(await state.hasRoot(abandoned.commit.root)).toBe(false);

    // The store still serves the parent state, untouched by the abandoned session.
    const reader = await state.reader(genesis.commit.root, common);
    expect(await reader.getBalance(addressOf(0))).toBe(100n);
    expect(await reader.getAccount(addressOf(49))).toBeUndefined();
  });

  it("commits the same root with or without a block-wide checkpoint", async () => {
    const store = await openStore();
    const state = new StateDatabase(defaultStateOptions, {store});
    const withCheckpoint = (await runBlock(state, EMPTY_TRIE_ROOT, 100n)).commit;

    const session = await state.openSession(EMPTY_TRIE_ROOT, common);
    for (let i = 0; i < 5; i++) await setAccount(session.stateManager, addressOf(i), 100n + BigInt(i));
    const without = await session.commit();
    expect(without.root).toEqual(withCheckpoint.root);
    expect(without.writes.length).toBe(withCheckpoint.writes.length);
  });

  it("refuses to commit while a checkpoint is open", async () => {
    const state = new StateDatabase(defaultStateOptions, {store: await openStore()});
    const session = await state.openSession(EMPTY_TRIE_ROOT, common);
    await session.stateManager.checkpoint();
    await setAccount(session.stateManager, addressOf(0), 1n);
    await expect(session.commit()).rejects.toMatchObject({code: StateErrorCode.CHECKPOINT_OPEN});
    await session.stateManager.commit();
    expect((await session.commit()).writes.length).toBeGreaterThan(0);
  });

  it("drops a reverted checkpoint's writes", async () => {
    const state = new StateDatabase(defaultStateOptions, {store: await openStore()});
    const session = await state.openSession(EMPTY_TRIE_ROOT, common);
    const sm = session.stateManager;
    await sm.checkpoint();
    await setAccount(sm, addressOf(0), 1n);
    await sm.revert();
    const commit = await session.commit();
    expect(commit.root).toEqual(EMPTY_TRIE_ROOT);
    expect(commit.writes).toEqual([]);
  });

  it("continues on top of its own unpersisted commit; a new session there needs the writes persisted", async () => {
    const store = await openStore();
    const state = new StateDatabase(defaultStateOptions, {store});
    const first = await runBlock(state, EMPTY_TRIE_ROOT, 100n);

    // Block N+1 on the same session, before block N's writes are stored: the overlay serves them.
    const sm = first.session.stateManager;
    await sm.checkpoint();
    await setAccount(sm, addressOf(9), 9n);
    await sm.commit();
    const second = await first.session.commit();
    const secondKeys = new Set(second.writes.map((op) => op.key.join()));
    expect(first.commit.writes.some((op) => secondKeys.has(op.key.join()))).toBe(false);

    // A separate session needs its root stored.
    await expect(state.openSession(first.commit.root, common)).rejects.toBeInstanceOf(StateError);
    await persist(store, first.commit);
    await persist(store, second);
    const reader = await state.reader(second.root, common);
    expect(await reader.getBalance(addressOf(2))).toBe(102n);
    expect(await reader.getBalance(addressOf(9))).toBe(9n);
    expect(await (await state.reader(first.commit.root, common)).getAccount(addressOf(9))).toBeUndefined();
  });

  it("does not rewrite nodes it only read from the store", async () => {
    const store = await openStore();
    const state = new StateDatabase({...defaultStateOptions, nodeCacheBytes: 0}, {store});
    const genesis = await runBlock(state, EMPTY_TRIE_ROOT, 100n, 200);
    await persist(store, genesis.commit);
    const stored = new Set((await dumpStateBucket(store)).map((entry) => entry.split("=")[0]));

    const session = await state.openSession(genesis.commit.root, common);
    await session.stateManager.checkpoint();
    for (let i = 0; i < 200; i++) await session.stateManager.getAccount(new Address(addressOf(i)));
    await setAccount(session.stateManager, addressOf(0), 1n);
    await session.stateManager.commit();
    const {writes} = await session.commit();
    const rewritten = writes.filter((op) => stored.has(Buffer.from(op.key.subarray(1)).toString("hex")));
    expect(rewritten).toEqual([]);
    expect(writes.length).toBeLessThan(10);
  });

  it("throws STATE_ROOT_MISSING for an unknown root and BAD_LENGTH for a short one", async () => {
    const state = new StateDatabase(defaultStateOptions, {store: await openStore()});
    const unknown = new Uint8Array(32).fill(0x42);
    await expect(state.openSession(unknown, common)).rejects.toMatchObject({
      code: StateErrorCode.ROOT_MISSING,
      type: {root: `0x${"42".repeat(32)}`},
    });
    await expect(state.hasRoot(new Uint8Array(31))).rejects.toMatchObject({code: StateErrorCode.BAD_LENGTH});
    expect(await state.hasRoot(EMPTY_TRIE_ROOT)).toBe(true);
  });
});

describe("StateSession.release", () => {
  it("hands the released session, caches warm, to the next session at its persisted root", async () => {
    const store = await openStore();
    const state = new StateDatabase(defaultStateOptions, {store});
    const first = await runBlock(state, EMPTY_TRIE_ROOT, 100n);
    first.session.release();
    // Not persisted yet: the root is unknown, whatever was released.
    await expect(state.openSession(first.commit.root, common)).rejects.toMatchObject({
      code: StateErrorCode.ROOT_MISSING,
    });
    first.session.release();
    await persist(store, first.commit);
    const reused = await state.openSession(first.commit.root, common);
    expect(reused).toBe(first.session);
    // Only once: the next open at the same root gets a fresh session.
    expect(await state.openSession(first.commit.root, common)).not.toBe(first.session);

    // The reused session goes on like a fresh one: same root and writes as a cold session would give.
    const sm = reused.stateManager;
    await sm.checkpoint();
    await setAccount(sm, addressOf(7), 7n);
    await sm.commit();
    const warm = await reused.commit();
    const cold = await runBlock(state, first.commit.root, 7n, 0).then(async ({session}) => {
      await setAccount(session.stateManager, addressOf(7), 7n);
      return session.commit();
    });
    expect(warm.root).toEqual(cold.root);
    await persist(store, warm);
    const reader = await state.reader(warm.root, common);
    expect(await reader.getBalance(addressOf(7))).toBe(7n);
    expect(await reader.getBalance(addressOf(2))).toBe(102n);
  });

  it("does not hand out a session released at another root", async () => {
    const store = await openStore();
    const state = new StateDatabase(defaultStateOptions, {store});
    const first = await runBlock(state, EMPTY_TRIE_ROOT, 100n);
    await persist(store, first.commit);
    const second = await runBlock(state, first.commit.root, 5n);
    second.session.release();
    expect(await state.openSession(first.commit.root, common)).not.toBe(second.session);
  });
});
