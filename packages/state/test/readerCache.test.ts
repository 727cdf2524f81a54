/** `StateDatabase.reader` hands out cached readers by root, whatever Common asks. */
import {createCustomCommon, Mainnet} from "@ethereumjs/common";
import {Address} from "@ethereumjs/util";
import {bytesToHex, hexToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {defaultStateOptions, EMPTY_TRIE_ROOT, StateDatabase} from "../src/index.ts";
import {addressOf, common, openStore, persist, setAccount, slotOf} from "./helpers.ts";

const USER = addressOf(1);
const CONTRACT = addressOf(100);

/** `count` persisted roots in a row; at root i USER has balance 100 + i and CONTRACT's slot 1 holds i + 1. */
async function roots(count: number): Promise<{state: StateDatabase; roots: Uint8Array[]}> {
  const store = await openStore();
  const state = new StateDatabase(defaultStateOptions, {store});
  const session = await state.openSession(EMPTY_TRIE_ROOT, common);
  await setAccount(session.stateManager, CONTRACT, 1n);
  const out: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    await setAccount(session.stateManager, USER, 100n + BigInt(i));
    await session.stateManager.putStorage(new Address(CONTRACT), slotOf(1), Uint8Array.of(i + 1));
    const commit = await session.commit();
    await persist(store, commit);
    out.push(commit.root);
  }
  return {state, roots: out};
}

describe("StateDatabase.reader cache", () => {
  it("returns the same reader for the same root, whichever Common is passed", async () => {
    const {
      state,
      roots: [first, second],
    } = await roots(2);
    const otherCommon = createCustomCommon({chainId: 33}, Mainnet, {hardfork: "shanghai", eips: [1153, 5656]});
    expect(otherCommon).not.toBe(common);

    const a = await state.reader(first!, common);
    expect(await state.reader(first!, otherCommon)).toBe(a);
    // An equal root in another array finds it too.
    expect(await state.reader(Uint8Array.from(first!), otherCommon)).toBe(a);
    const b = await state.reader(second!, otherCommon);
    expect(b).not.toBe(a);
    expect(await state.reader(second!, common)).toBe(b);
    // Back and forth between the two roots: the cache, not just the last reader, answers.
    expect(await state.reader(first!, otherCommon)).toBe(a);
    expect(await state.reader(second!, common)).toBe(b);
    expect(a.root).toEqual(first);
    expect(b.root).toEqual(second);
  });

  it("readers at different roots answer with their own values when used alternately", async () => {
    const {state, roots: list} = await roots(3);
    const readers = await Promise.all(list.map((root) => state.reader(root, common)));
    for (let round = 0; round < 3; round++) {
      for (const i of [0, 2, 1, 0, 1, 2]) {
        const reader = await state.reader(list[i]!, common);
        expect(reader).toBe(readers[i]);
        expect(reader.root).toEqual(list[i]);
        expect(await reader.getBalance(USER)).toBe(100n + BigInt(i));
        expect(bytesToHex(await reader.getStorage(CONTRACT, slotOf(1)))).toBe(`${"00".repeat(31)}0${i + 1}`);
        expect(await reader.getCode(CONTRACT)).toEqual(new Uint8Array(0));
      }
    }
  });

  it("readers created again after others pushed them out still read their own root", async () => {
    const {state, roots: list} = await roots(7);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < list.length; i++) {
        const reader = await state.reader(list[i]!, common);
        expect(reader.root).toEqual(list[i]);
        expect(await reader.getBalance(USER)).toBe(100n + BigInt(i));
        expect(await reader.getStorage(CONTRACT, slotOf(1))).toEqual(hexToBytes(`${"00".repeat(31)}0${i + 1}`));
      }
    }
  });

  it("holds the readers' account and storage caches to their byte budget, and reports every cache", async () => {
    const {state: unbounded, roots: list} = await roots(1);
    const root = list[0]!;
    // Reading 2,000 distinct accounts and slots with the default budget keeps them all.
    const reader = await unbounded.reader(root, common);
    for (let i = 0; i < 2_000; i++) {
      await reader.getBalance(addressOf(1_000 + i));
      await reader.getStorage(CONTRACT, slotOf(1_000 + i));
    }
    const usage = (db: StateDatabase) => Object.fromEntries(db.cacheUsage("s").map((c) => [c.cache, c]));
    const held = usage(unbounded)["s.readers"]!.bytes;
    expect(held).toBeGreaterThan(2_000 * 500);
    expect(usage(unbounded)["s.readers"]!.budgetBytes).toBe(defaultStateOptions.readerCacheBytes);

    // With a budget of 400 KiB (100 KiB per reader) the same reads keep at most that.
    const store = await openStore();
    const small = new StateDatabase({...defaultStateOptions, readerCacheBytes: 400 * 1024}, {store});
    const session = await small.openSession(EMPTY_TRIE_ROOT, common);
    await setAccount(session.stateManager, USER, 5n);
    const commit = await session.commit();
    await persist(store, commit);
    const bounded = await small.reader(commit.root, common);
    for (let i = 0; i < 2_000; i++) {
      await bounded.getBalance(addressOf(1_000 + i));
      await bounded.getStorage(CONTRACT, slotOf(1_000 + i));
    }
    expect(usage(small)["s.readers"]!.bytes).toBeLessThanOrEqual(100 * 1024);
    expect(usage(small)["s.readers"]!.bytes).toBeGreaterThan(50 * 1024);
    // What was dropped is read again, correctly.
    expect(await bounded.getBalance(USER)).toBe(5n);
    expect(Object.keys(usage(small)).sort()).toEqual(["s.code", "s.readers", "s.trieNodes"]);
    expect(usage(small)["s.trieNodes"]!.bytes).toBeGreaterThan(0);
  });
});
