import type {StateManagerInterface} from "@ethereumjs/common";
import {Address} from "@ethereumjs/util";
import {describe, expect, it} from "vitest";
import {defaultStateOptions, EMPTY_TRIE_ROOT, StateDatabase, type StateSession} from "../src/index.ts";
import {addressOf, common, openStore, persist, setAccount, slotOf} from "./helpers.ts";

const SLOT = slotOf(1);

/** A block on `root`: account 0 gets `balance`, account 1's slot 1 gets `value`; committed, not released. */
async function block(state: StateDatabase, root: Uint8Array, balance: bigint, value: number) {
  const session = await state.openSession(root, common);
  const sm = session.stateManager;
  await sm.checkpoint();
  await setAccount(sm, addressOf(0), balance);
  await setAccount(sm, addressOf(1), 1n);
  await sm.putStorage(new Address(addressOf(1)), SLOT, Uint8Array.of(value));
  await sm.commit();
  return {session, commit: await session.commit()};
}

/** The ethereumjs caches a session's state manager reads through. */
function cachesOf(session: StateSession): unknown {
  return (session.stateManager as unknown as {_caches: unknown})._caches;
}

async function read(sm: StateManagerInterface) {
  return {
    balance: (await sm.getAccount(new Address(addressOf(0))))?.balance,
    slot: await sm.getStorage(new Address(addressOf(1)), SLOT),
    created: await sm.getAccount(new Address(addressOf(9))),
  };
}

describe("StateDatabase session cache reuse", () => {
  it("hands a displaced session's caches, emptied, to a cold session at another root", async () => {
    const store = await openStore();
    const state = new StateDatabase(defaultStateOptions, {store});
    const genesis = await block(state, EMPTY_TRIE_ROOT, 100n, 1);
    await persist(store, genesis.commit);
    const other = await block(state, genesis.commit.root, 555n, 5);
    await persist(store, other.commit);

    // A session at genesis caches genesis's values and its own writes, then is released (warm).
    const first = await state.openSession(genesis.commit.root, common);
    expect(await read(first.stateManager)).toMatchObject({balance: 100n, slot: Uint8Array.of(1)});
    await setAccount(first.stateManager, addressOf(0), 7n);
    await setAccount(first.stateManager, addressOf(9), 9n);
    await first.stateManager.putStorage(new Address(addressOf(1)), SLOT, Uint8Array.of(9));
    await first.commit();
    first.release();
    // A second one at genesis is cold; its release displaces the first, whose caches go to the pool.
    const second = await state.openSession(genesis.commit.root, common);
    expect(cachesOf(second)).not.toBe(cachesOf(first));
    await setAccount(second.stateManager, addressOf(2), 2n);
    await second.commit();
    second.release();

    const reused = await state.openSession(other.commit.root, common);
    expect(reused).not.toBe(first);
    expect(cachesOf(reused)).toBe(cachesOf(first));
    // Nothing the first session cached shows through: the other root's values are read.
    expect(await read(reused.stateManager)).toEqual({balance: 555n, slot: Uint8Array.of(5), created: undefined});
    // And it commits what a session with new caches would.
    await setAccount(reused.stateManager, addressOf(3), 3n);
    const fresh = await state.openSession(other.commit.root, common);
    expect(cachesOf(fresh)).not.toBe(cachesOf(first));
    await setAccount(fresh.stateManager, addressOf(3), 3n);
    expect((await reused.commit()).root).toEqual((await fresh.commit()).root);
  });
});
