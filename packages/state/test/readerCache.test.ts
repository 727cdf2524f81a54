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
});
