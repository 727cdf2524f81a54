/** States computed but not stored (the pending block's): readable, never a base for sessions. */
import {describe, expect, it} from "vitest";
import {defaultStateOptions, EMPTY_TRIE_ROOT, StateDatabase, StateErrorCode} from "../src/index.ts";
import {addressOf, common, dumpStateBucket, openStore, persist, setAccount} from "./helpers.ts";

/** A second database on the same store computes a state, as block assembly does with its own. */
async function computeElsewhere(store: Awaited<ReturnType<typeof openStore>>, root: Uint8Array, balance: bigint) {
  const session = await new StateDatabase(defaultStateOptions, {store}).openSession(root, common);
  for (let i = 0; i < 3; i++) await setAccount(session.stateManager, addressOf(i), balance + BigInt(i));
  return session.commit();
}

describe("StateDatabase.stageUnpersisted", () => {
  it("serves reads at a staged root from memory and the rest from the store, writing nothing", async () => {
    const store = await openStore();
    const state = new StateDatabase(defaultStateOptions, {store});
    const base = await computeElsewhere(store, EMPTY_TRIE_ROOT, 100n);
    await persist(store, base);
    const before = await dumpStateBucket(store);

    const pending = await computeElsewhere(store, base.root, 500n);
    await expect(state.reader(pending.root, common)).rejects.toMatchObject({code: StateErrorCode.ROOT_MISSING});
    state.stageUnpersisted(pending);
    const reader = await state.reader(pending.root, common);
    expect(await reader.getBalance(addressOf(2))).toBe(502n);
    expect(await dumpStateBucket(store)).toEqual(before);
    // Nothing may be built on it: a session would commit references to nodes that are not stored.
    expect(await state.hasRoot(pending.root)).toBe(false);
    await expect(state.openSession(pending.root, common)).rejects.toMatchObject({code: StateErrorCode.ROOT_MISSING});
  });

  it("keeps the last three staged states", async () => {
    const store = await openStore();
    const state = new StateDatabase(defaultStateOptions, {store});
    const staged = [];
    for (let i = 0; i < 4; i++) {
      const commit = await computeElsewhere(store, EMPTY_TRIE_ROOT, BigInt(1_000 * (i + 1)));
      state.stageUnpersisted(commit);
      staged.push(commit.root);
    }
    for (const root of staged.slice(1)) await expect(state.reader(root, common)).resolves.toBeDefined();
    await expect(state.reader(staged[0]!, common)).rejects.toMatchObject({code: StateErrorCode.ROOT_MISSING});
    expect(staged.map((root) => state.isStaged(root))).toEqual([false, true, true, true]);
  });

  it("answers which roots are staged: not a stored one, not an unknown one, not one staged elsewhere", async () => {
    const store = await openStore();
    const state = new StateDatabase(defaultStateOptions, {store});
    const base = await computeElsewhere(store, EMPTY_TRIE_ROOT, 100n);
    await persist(store, base);
    const pending = await computeElsewhere(store, base.root, 500n);
    expect(state.isStaged(pending.root)).toBe(false);
    state.stageUnpersisted(pending);
    expect(state.isStaged(pending.root)).toBe(true);
    // A copy of the root, as a request carries it: the question is by value.
    expect(state.isStaged(Uint8Array.from(pending.root))).toBe(true);
    expect(state.isStaged(base.root)).toBe(false);
    expect(state.isStaged(new Uint8Array(32).fill(7))).toBe(false);
    // Another database over the same store (a call worker's) cannot read it: it is staged here only.
    expect(new StateDatabase(defaultStateOptions, {store}).isStaged(pending.root)).toBe(false);
  });
});
