import {Address} from "@ethereumjs/util";
import {bytesToHex, hexToBytes, keccak256} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {defaultStateOptions, EMPTY_TRIE_ROOT, StateDatabase, StateErrorCode} from "../src/index.ts";
import {addressOf, closeStore, common, openStore, persist, setAccount, slotOf} from "./helpers.ts";

// PUSH1 0x2a PUSH1 0 SSTORE STOP: arbitrary bytes, stored as the contract's code.
const CODE = hexToBytes("602a60005500");
const EMPTY_CODE_HASH = keccak256(new Uint8Array(0));

describe("StateReader", () => {
  it("reads balances, nonces, code and storage at old and new roots after a reopen", async () => {
    let store = await openStore();
    const path = store.path;
    let state = new StateDatabase(defaultStateOptions, {store});
    const contract = addressOf(100);

    const first = await state.openSession(EMPTY_TRIE_ROOT, common);
    const sm = first.stateManager;
    await sm.checkpoint();
    await setAccount(sm, addressOf(1), 1000n, 3n);
    await sm.putCode(new Address(contract), CODE);
    await sm.putStorage(new Address(contract), slotOf(1), hexToBytes("0102"));
    await sm.commit();
    const oldCommit = await first.commit();
    await persist(store, oldCommit);

    const second = await state.openSession(oldCommit.root, common);
    await second.stateManager.checkpoint();
    await setAccount(second.stateManager, addressOf(1), 400n, 4n);
    await setAccount(second.stateManager, addressOf(2), 600n);
    await second.stateManager.putStorage(new Address(contract), slotOf(1), hexToBytes("ff"));
    await second.stateManager.putStorage(new Address(contract), slotOf(2), hexToBytes("07"));
    await second.stateManager.commit();
    const newCommit = await second.commit();
    await persist(store, newCommit);

    await closeStore(store);
    store = await openStore(path);
    state = new StateDatabase(defaultStateOptions, {store});

    const before = await state.reader(oldCommit.root, common);
    expect(before.root).toEqual(oldCommit.root);
    expect(await before.getBalance(addressOf(1))).toBe(1000n);
    expect(await before.getNonce(addressOf(1))).toBe(3n);
    expect(await before.getAccount(addressOf(2))).toBeUndefined();
    expect(await before.getCode(contract)).toEqual(CODE);
    expect(bytesToHex(await before.getStorage(contract, slotOf(1)))).toBe(`${"00".repeat(30)}0102`);
    expect(await before.getStorage(contract, slotOf(2))).toEqual(new Uint8Array(32));

    const after = await state.reader(newCommit.root, common);
    expect(await after.getBalance(addressOf(1))).toBe(400n);
    expect(await after.getNonce(addressOf(1))).toBe(4n);
    expect(await after.getBalance(addressOf(2))).toBe(600n);
    expect(await after.getCode(contract)).toEqual(CODE);
    expect(bytesToHex(await after.getStorage(contract, slotOf(1)))).toBe(`${"00".repeat(31)}ff`);
    expect(bytesToHex(await after.getStorage(contract, slotOf(2)))).toBe(`${"00".repeat(31)}07`);
    const account = await after.getAccount(contract);
    expect(account?.codeHash).toEqual(keccak256(CODE));
    expect(account?.storageRoot).not.toEqual(EMPTY_TRIE_ROOT);
  });

  it("gives zero values for a missing account", async () => {
    const state = new StateDatabase(defaultStateOptions, {store: await openStore()});
    const reader = await state.reader(EMPTY_TRIE_ROOT, common);
    const missing = addressOf(5);
    expect(await reader.getAccount(missing)).toBeUndefined();
    expect(await reader.getBalance(missing)).toBe(0n);
    expect(await reader.getNonce(missing)).toBe(0n);
    expect(await reader.getCode(missing)).toEqual(new Uint8Array(0));
    expect(await reader.getStorage(missing, slotOf(0))).toEqual(new Uint8Array(32));
  });

  it("reports an existing empty account as existing", async () => {
    const store = await openStore();
    const state = new StateDatabase(defaultStateOptions, {store});
    const session = await state.openSession(EMPTY_TRIE_ROOT, common);
    await setAccount(session.stateManager, addressOf(1), 0n);
    const commit = await session.commit();
    await persist(store, commit);
    const account = await (await state.reader(commit.root, common)).getAccount(addressOf(1));
    expect(account).toEqual({nonce: 0n, balance: 0n, codeHash: EMPTY_CODE_HASH, storageRoot: EMPTY_TRIE_ROOT});
  });

  it("rejects addresses and slots of the wrong length", async () => {
    const reader = await new StateDatabase(defaultStateOptions, {store: await openStore()}).reader(
      EMPTY_TRIE_ROOT,
      common,
    );
    await expect(reader.getBalance(new Uint8Array(19))).rejects.toMatchObject({
      code: StateErrorCode.BAD_LENGTH,
      type: {field: "address", expected: 20, actual: 19},
    });
    await expect(reader.getStorage(addressOf(1), new Uint8Array(31))).rejects.toMatchObject({
      code: StateErrorCode.BAD_LENGTH,
      type: {field: "slot"},
    });
  });
});

describe("StateDatabase.reader reuse", () => {
  it("hands out the same reader for the same root, and a new one for another root", async () => {
    const store = await openStore();
    const state = new StateDatabase(defaultStateOptions, {store});
    const session = await state.openSession(EMPTY_TRIE_ROOT, common);
    await setAccount(session.stateManager, addressOf(1), 11n);
    const first = await session.commit();
    await persist(store, first);
    await setAccount(session.stateManager, addressOf(1), 12n);
    const second = await session.commit();
    await persist(store, second);
    const a = await state.reader(first.root, common);
    expect(await state.reader(first.root, common)).toBe(a);
    const b = await state.reader(second.root, common);
    expect(b).not.toBe(a);
    expect(await a.getBalance(addressOf(1))).toBe(11n);
    expect(await b.getBalance(addressOf(1))).toBe(12n);
  });
});
