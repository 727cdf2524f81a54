/** The call overlay: reads through to a real trie-backed reader, journaled writes that never reach it. */
import type {StateManagerInterface} from "@ethereumjs/common";
import {createEVM} from "@ethereumjs/evm";
import {Account, Address} from "@ethereumjs/util";
import type {LevelStore} from "@xchain/db";
import {bytesToHex, hexToBytes, keccak256} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {
  defaultStateOptions,
  EMPTY_TRIE_ROOT,
  StateDatabase,
  StateError,
  StateErrorCode,
  type StateReader,
} from "../src/index.ts";
import {OverlayStateManager} from "../src/overlayStateManager.ts";
import {addressOf, common, openStore, persist, setAccount, slotOf} from "./helpers.ts";

// PUSH1 0x2a PUSH1 0 SSTORE STOP: stored as the base contract's code, never run.
const CODE = hexToBytes("602a60005500");
const EMPTY = new Uint8Array(0);
const EMPTY_CODE_HASH = keccak256(EMPTY);

const USER = addressOf(1);
const CONTRACT = addressOf(100);
const MISSING = addressOf(7);
const at = (bytes: Uint8Array) => new Address(bytes);

interface Base {
  store: LevelStore;
  state: StateDatabase;
  reader: StateReader;
  root: Uint8Array;
}

/**
 * The base state: USER (balance 1000, nonce 3) and CONTRACT (code CODE, slot 1 = 0x0102,
 * slot 2 = 0x07, balance 5); MISSING does not exist.
 */
async function base(): Promise<Base> {
  const store = await openStore();
  const state = new StateDatabase(defaultStateOptions, {store});
  const session = await state.openSession(EMPTY_TRIE_ROOT, common);
  const sm = session.stateManager;
  await sm.checkpoint();
  await setAccount(sm, USER, 1000n, 3n);
  await sm.putCode(at(CONTRACT), CODE);
  await sm.modifyAccountFields(at(CONTRACT), {balance: 5n});
  await sm.putStorage(at(CONTRACT), slotOf(1), hexToBytes("0102"));
  await sm.putStorage(at(CONTRACT), slotOf(2), hexToBytes("07"));
  await sm.commit();
  const commit = await session.commit();
  await persist(store, commit);
  return {store, state, reader: await state.reader(commit.root, common), root: commit.root};
}

async function overlay(): Promise<{overlay: OverlayStateManager} & Base> {
  const b = await base();
  return {...b, overlay: new OverlayStateManager(b.reader)};
}

const storageHex = async (sm: OverlayStateManager, address: Uint8Array, slot: number) =>
  bytesToHex(await sm.getStorage(at(address), slotOf(slot)));

describe("OverlayStateManager reads", () => {
  it("reads accounts from the base, as a fresh Account on every read", async () => {
    const {overlay: sm, reader} = await overlay();
    const first = await sm.getAccount(at(USER));
    expect(first).toBeInstanceOf(Account);
    expect(first?.balance).toBe(1000n);
    expect(first?.nonce).toBe(3n);
    expect(first?.codeHash).toEqual(EMPTY_CODE_HASH);
    expect(first?.storageRoot).toEqual(EMPTY_TRIE_ROOT);
    const second = await sm.getAccount(at(USER));
    expect(second).not.toBe(first);
    expect(second).toEqual(first);

    // The EVM mutates what it reads before putting it back: without putAccount nothing changes.
    first!.balance = 1n;
    first!.nonce = 99n;
    expect((await sm.getAccount(at(USER)))?.balance).toBe(1000n);
    expect((await sm.getAccount(at(USER)))?.nonce).toBe(3n);
    expect(await reader.getBalance(USER)).toBe(1000n);
    expect(await reader.getNonce(USER)).toBe(3n);

    const contract = await sm.getAccount(at(CONTRACT));
    expect(contract?.codeHash).toEqual(keccak256(CODE));
    expect(contract?.storageRoot).not.toEqual(EMPTY_TRIE_ROOT);
    expect(await sm.getAccount(at(MISSING))).toBeUndefined();
  });

  it("reads storage from the base without leading zeros, empty for zero", async () => {
    const {overlay: sm} = await overlay();
    expect(await sm.getStorage(at(CONTRACT), slotOf(1))).toEqual(hexToBytes("0102"));
    expect(await sm.getStorage(at(CONTRACT), slotOf(2))).toEqual(hexToBytes("07"));
    expect(await sm.getStorage(at(CONTRACT), slotOf(3))).toEqual(EMPTY);
    expect(await sm.getStorage(at(USER), slotOf(1))).toEqual(EMPTY);
    expect(await sm.getStorage(at(MISSING), slotOf(1))).toEqual(EMPTY);
  });

  it("reads code and code size from the base", async () => {
    const {overlay: sm} = await overlay();
    expect(await sm.getCode(at(CONTRACT))).toEqual(CODE);
    expect(await sm.getCodeSize(at(CONTRACT))).toBe(CODE.length);
    expect(await sm.getCode(at(USER))).toEqual(EMPTY);
    expect(await sm.getCodeSize(at(USER))).toBe(0);
    expect(await sm.getCode(at(MISSING))).toEqual(EMPTY);
    expect(await sm.getCodeSize(at(MISSING))).toBe(0);
  });
});

describe("OverlayStateManager writes", () => {
  it("puts and reads accounts without touching the base", async () => {
    const {overlay: sm, reader} = await overlay();
    const created = new Account(1n, 42n);
    await sm.putAccount(at(MISSING), created);
    // The overlay keeps its own copy: later changes to the object put are not seen.
    created.balance = 7n;
    const read = await sm.getAccount(at(MISSING));
    expect(read?.balance).toBe(42n);
    expect(read?.nonce).toBe(1n);
    expect(read).not.toBe(created);

    await sm.putAccount(at(USER), new Account(4n, 400n));
    expect((await sm.getAccount(at(USER)))?.balance).toBe(400n);
    expect((await sm.getAccount(at(USER)))?.nonce).toBe(4n);
    expect(await reader.getBalance(USER)).toBe(1000n);
    expect(await reader.getAccount(MISSING)).toBeUndefined();

    // A contract put back with its own fields (as the EVM does after a balance change) keeps its code and storage.
    const contract = (await sm.getAccount(at(CONTRACT)))!;
    contract.balance = 6n;
    await sm.putAccount(at(CONTRACT), contract);
    expect(await sm.getCode(at(CONTRACT))).toEqual(CODE);
    expect(await storageHex(sm, CONTRACT, 1)).toBe("0102");

    // Put with the empty code hash (as when a contract is replaced by a plain account), the base code is gone.
    await sm.putAccount(at(CONTRACT), new Account(0n, 6n));
    expect(await sm.getCode(at(CONTRACT))).toEqual(EMPTY);
    expect(await sm.getCodeSize(at(CONTRACT))).toBe(0);

    await sm.modifyAccountFields(at(USER), {nonce: 9n});
    expect((await sm.getAccount(at(USER)))?.nonce).toBe(9n);
    expect((await sm.getAccount(at(USER)))?.balance).toBe(400n);

    // putAccount without an account deletes it.
    await sm.putAccount(at(USER), undefined);
    expect(await sm.getAccount(at(USER))).toBeUndefined();
  });

  it("deleteAccount hides the base account, its code and its storage", async () => {
    const {overlay: sm, reader} = await overlay();
    await sm.deleteAccount(at(CONTRACT));
    expect(await sm.getAccount(at(CONTRACT))).toBeUndefined();
    expect(await sm.getCode(at(CONTRACT))).toEqual(EMPTY);
    expect(await sm.getCodeSize(at(CONTRACT))).toBe(0);
    expect(await sm.getStorage(at(CONTRACT), slotOf(1))).toEqual(EMPTY);
    expect(await sm.getStorage(at(CONTRACT), slotOf(2))).toEqual(EMPTY);
    // Recreated, it starts empty: no base code or storage shows through.
    await sm.putAccount(at(CONTRACT), new Account(0n, 1n));
    expect(await sm.getCode(at(CONTRACT))).toEqual(EMPTY);
    expect(await sm.getStorage(at(CONTRACT), slotOf(1))).toEqual(EMPTY);
    expect(await reader.getCode(CONTRACT)).toEqual(CODE);
    expect(bytesToHex(await reader.getStorage(CONTRACT, slotOf(1)))).toBe(`${"00".repeat(30)}0102`);
  });

  it("an account deleted after putCode and created again has no code", async () => {
    const {overlay: sm} = await overlay();
    await sm.putCode(at(MISSING), CODE);
    expect(await sm.getCode(at(MISSING))).toEqual(CODE);
    await sm.deleteAccount(at(MISSING));
    await sm.putAccount(at(MISSING), new Account(0n, 1n));
    expect(await sm.getCode(at(MISSING))).toEqual(EMPTY);
  });

  it("clearStorage hides the base storage, and values put afterwards are visible", async () => {
    const {overlay: sm} = await overlay();
    await sm.clearStorage(at(CONTRACT));
    expect(await sm.getStorage(at(CONTRACT), slotOf(1))).toEqual(EMPTY);
    expect(await sm.getStorage(at(CONTRACT), slotOf(2))).toEqual(EMPTY);
    await sm.putStorage(at(CONTRACT), slotOf(2), hexToBytes("09"));
    expect(await storageHex(sm, CONTRACT, 2)).toBe("09");
    expect(await sm.getStorage(at(CONTRACT), slotOf(1))).toEqual(EMPTY);
    // The account and its code are left alone.
    expect(await sm.getCode(at(CONTRACT))).toEqual(CODE);
    expect((await sm.getAccount(at(CONTRACT)))?.balance).toBe(5n);
  });

  it("putStorage strips leading zeros and reads a zero value back as empty", async () => {
    const {overlay: sm} = await overlay();
    await sm.putStorage(at(CONTRACT), slotOf(3), hexToBytes("0000ab00"));
    expect(await storageHex(sm, CONTRACT, 3)).toBe("ab00");
    await sm.putStorage(at(CONTRACT), slotOf(1), new Uint8Array(32));
    expect(await sm.getStorage(at(CONTRACT), slotOf(1))).toEqual(EMPTY);
    // Other slots still come from the base.
    expect(await storageHex(sm, CONTRACT, 2)).toBe("07");
  });

  it("putCode sets the code hash, keeps the other fields, and creates a missing account", async () => {
    const {overlay: sm, reader} = await overlay();
    const code = hexToBytes("6001600101");
    await sm.putCode(at(MISSING), code);
    const created = await sm.getAccount(at(MISSING));
    expect(created?.codeHash).toEqual(keccak256(code));
    expect(created?.balance).toBe(0n);
    expect(created?.nonce).toBe(0n);
    expect(await sm.getCode(at(MISSING))).toEqual(code);
    expect(await sm.getCodeSize(at(MISSING))).toBe(code.length);

    await sm.putCode(at(USER), code);
    const user = await sm.getAccount(at(USER));
    expect(user?.codeHash).toEqual(keccak256(code));
    expect(user?.balance).toBe(1000n);
    expect(user?.nonce).toBe(3n);
    expect(await sm.getCode(at(USER))).toEqual(code);

    await sm.putCode(at(CONTRACT), code);
    expect(await sm.getCode(at(CONTRACT))).toEqual(code);
    expect((await sm.getAccount(at(CONTRACT)))?.codeHash).toEqual(keccak256(code));
    expect(await reader.getCode(CONTRACT)).toEqual(CODE);
    expect(await reader.getCode(USER)).toEqual(EMPTY);
  });

  it("keeps the base's original storage values for gas metering", async () => {
    const {overlay: sm} = await overlay();
    await sm.putStorage(at(CONTRACT), slotOf(1), hexToBytes("ff"));
    await sm.putStorage(at(CONTRACT), slotOf(3), hexToBytes("01"));
    expect(await storageHex(sm, CONTRACT, 1)).toBe("ff");
    expect(await sm.originalStorageCache.get(at(CONTRACT), slotOf(1))).toEqual(hexToBytes("0102"));
    expect(await sm.originalStorageCache.get(at(CONTRACT), slotOf(3))).toEqual(EMPTY);
    await sm.clearStorage(at(CONTRACT));
    expect(await sm.originalStorageCache.get(at(CONTRACT), slotOf(2))).toEqual(hexToBytes("07"));
    sm.originalStorageCache.clear();
    expect(await sm.originalStorageCache.get(at(CONTRACT), slotOf(1))).toEqual(hexToBytes("0102"));
  });
});

describe("OverlayStateManager checkpoints", () => {
  it("a revert to an inner checkpoint keeps the outer writes", async () => {
    const {overlay: sm} = await overlay();
    await sm.checkpoint();
    await sm.putStorage(at(CONTRACT), slotOf(1), hexToBytes("11"));
    await sm.modifyAccountFields(at(USER), {balance: 900n});
    await sm.checkpoint();
    await sm.putStorage(at(CONTRACT), slotOf(1), hexToBytes("22"));
    await sm.putStorage(at(CONTRACT), slotOf(2), hexToBytes("33"));
    await sm.modifyAccountFields(at(USER), {balance: 800n});
    await sm.putCode(at(MISSING), CODE);
    await sm.deleteAccount(at(CONTRACT));
    expect(await sm.getAccount(at(CONTRACT))).toBeUndefined();
    await sm.revert();

    expect(await storageHex(sm, CONTRACT, 1)).toBe("11");
    expect(await storageHex(sm, CONTRACT, 2)).toBe("07");
    expect((await sm.getAccount(at(USER)))?.balance).toBe(900n);
    expect(await sm.getAccount(at(MISSING))).toBeUndefined();
    expect(await sm.getCode(at(MISSING))).toEqual(EMPTY);
    expect(await sm.getCode(at(CONTRACT))).toEqual(CODE);
    expect((await sm.getAccount(at(CONTRACT)))?.balance).toBe(5n);

    await sm.commit();
    expect(await storageHex(sm, CONTRACT, 1)).toBe("11");
    expect((await sm.getAccount(at(USER)))?.balance).toBe(900n);
  });

  it("an outer revert undoes the writes of a committed inner checkpoint", async () => {
    const {overlay: sm} = await overlay();
    await sm.putStorage(at(CONTRACT), slotOf(3), hexToBytes("03"));
    await sm.checkpoint();
    await sm.putStorage(at(CONTRACT), slotOf(1), hexToBytes("11"));
    await sm.checkpoint();
    await sm.putStorage(at(CONTRACT), slotOf(2), hexToBytes("22"));
    await sm.putCode(at(USER), CODE);
    await sm.commit();
    expect(await storageHex(sm, CONTRACT, 2)).toBe("22");
    expect(await sm.getCode(at(USER))).toEqual(CODE);
    await sm.revert();

    expect(await storageHex(sm, CONTRACT, 1)).toBe("0102");
    expect(await storageHex(sm, CONTRACT, 2)).toBe("07");
    expect(await sm.getCode(at(USER))).toEqual(EMPTY);
    expect((await sm.getAccount(at(USER)))?.codeHash).toEqual(EMPTY_CODE_HASH);
    // Written before the checkpoint: kept.
    expect(await storageHex(sm, CONTRACT, 3)).toBe("03");
  });

  it("a revert after clearStorage restores the slots written before it", async () => {
    const {overlay: sm} = await overlay();
    await sm.putStorage(at(CONTRACT), slotOf(3), hexToBytes("03"));
    await sm.putStorage(at(CONTRACT), slotOf(1), hexToBytes("11"));
    await sm.checkpoint();
    await sm.putStorage(at(CONTRACT), slotOf(3), hexToBytes("33"));
    await sm.clearStorage(at(CONTRACT));
    await sm.putStorage(at(CONTRACT), slotOf(4), hexToBytes("44"));
    expect(await sm.getStorage(at(CONTRACT), slotOf(3))).toEqual(EMPTY);
    expect(await storageHex(sm, CONTRACT, 4)).toBe("44");
    await sm.revert();

    expect(await storageHex(sm, CONTRACT, 3)).toBe("03");
    expect(await storageHex(sm, CONTRACT, 1)).toBe("11");
    expect(await storageHex(sm, CONTRACT, 2)).toBe("07");
    expect(await sm.getStorage(at(CONTRACT), slotOf(4))).toEqual(EMPTY);
  });

  it("a revert after deleteAccount brings back the account, its code and its storage", async () => {
    const {overlay: sm} = await overlay();
    await sm.putStorage(at(CONTRACT), slotOf(1), hexToBytes("11"));
    await sm.checkpoint();
    await sm.deleteAccount(at(CONTRACT));
    await sm.putAccount(at(CONTRACT), new Account(0n, 1n));
    await sm.putStorage(at(CONTRACT), slotOf(2), hexToBytes("22"));
    await sm.revert();

    expect((await sm.getAccount(at(CONTRACT)))?.balance).toBe(5n);
    expect(await sm.getCode(at(CONTRACT))).toEqual(CODE);
    expect(await storageHex(sm, CONTRACT, 1)).toBe("11");
    expect(await storageHex(sm, CONTRACT, 2)).toBe("07");
  });
});

describe("OverlayStateManager reset", () => {
  it("reset() drops every write and open checkpoint", async () => {
    const {overlay: sm} = await overlay();
    await sm.putStorage(at(CONTRACT), slotOf(1), hexToBytes("11"));
    await sm.checkpoint();
    await sm.deleteAccount(at(USER));
    await sm.putCode(at(MISSING), CODE);
    await sm.clearStorage(at(CONTRACT));
    sm.reset();

    expect((await sm.getAccount(at(USER)))?.balance).toBe(1000n);
    expect(await sm.getAccount(at(MISSING))).toBeUndefined();
    expect(await sm.getCode(at(MISSING))).toEqual(EMPTY);
    expect(await storageHex(sm, CONTRACT, 1)).toBe("0102");
    expect(await storageHex(sm, CONTRACT, 2)).toBe("07");

    // No checkpoint survived: a write now and a checkpoint/revert pair around a later one behave normally.
    await sm.putStorage(at(CONTRACT), slotOf(1), hexToBytes("55"));
    await sm.checkpoint();
    await sm.putStorage(at(CONTRACT), slotOf(1), hexToBytes("66"));
    await sm.revert();
    expect(await storageHex(sm, CONTRACT, 1)).toBe("55");
  });

  it("reset() leaves no checkpoint open: a revert then goes back to the base", async () => {
    const {overlay: sm} = await overlay();
    await sm.checkpoint();
    await sm.putStorage(at(CONTRACT), slotOf(1), hexToBytes("11"));
    await sm.checkpoint();
    sm.reset();
    await sm.putStorage(at(CONTRACT), slotOf(1), hexToBytes("22"));
    await sm.putStorage(at(CONTRACT), slotOf(2), hexToBytes("33"));
    await sm.putStorage(at(CONTRACT), slotOf(3), hexToBytes("44"));
    await sm.revert();
    expect(await storageHex(sm, CONTRACT, 1)).toBe("0102");
    expect(await storageHex(sm, CONTRACT, 2)).toBe("07");
    expect(await sm.getStorage(at(CONTRACT), slotOf(3))).toEqual(EMPTY);
  });

  it("reset(reader) switches the base state", async () => {
    const {overlay: sm, store, state, root} = await overlay();
    const session = await state.openSession(root, common);
    await session.stateManager.checkpoint();
    await setAccount(session.stateManager, USER, 400n, 4n);
    await setAccount(session.stateManager, MISSING, 70n);
    await session.stateManager.putStorage(at(CONTRACT), slotOf(1), hexToBytes("ff"));
    await session.stateManager.commit();
    const next = await session.commit();
    await persist(store, next);
    const later = await state.reader(next.root, common);

    await sm.putStorage(at(CONTRACT), slotOf(2), hexToBytes("22"));
    sm.reset(later);
    expect((await sm.getAccount(at(USER)))?.balance).toBe(400n);
    expect((await sm.getAccount(at(MISSING)))?.balance).toBe(70n);
    expect(await storageHex(sm, CONTRACT, 1)).toBe("ff");
    expect(await storageHex(sm, CONTRACT, 2)).toBe("07");
    expect(await sm.originalStorageCache.get(at(CONTRACT), slotOf(1))).toEqual(hexToBytes("ff"));

    sm.reset(await state.reader(root, common));
    expect((await sm.getAccount(at(USER)))?.balance).toBe(1000n);
    expect(await sm.getAccount(at(MISSING))).toBeUndefined();
    expect(await storageHex(sm, CONTRACT, 1)).toBe("0102");
  });
});

describe("OverlayStateManager roots", () => {
  it("refuses getStateRoot, setStateRoot and hasStateRoot with READ_ONLY", async () => {
    const {overlay: manager, root} = await overlay();
    // As the EVM sees it: the interface's signatures, with their arguments.
    const sm: StateManagerInterface = manager;
    const calls: [string, () => Promise<unknown>][] = [
      ["getStateRoot", () => sm.getStateRoot()],
      ["setStateRoot", () => sm.setStateRoot(root)],
      ["hasStateRoot", () => sm.hasStateRoot(root)],
    ];
    for (const [operation, call] of calls) {
      const error = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StateError);
      expect(error).toMatchObject({code: StateErrorCode.READ_ONLY, type: {operation}});
    }
  });
});

describe("OverlayStateManager under an EVM", () => {
  // PUSH1 0x2a PUSH1 1 SSTORE, then STOP or PUSH1 0 PUSH1 0 REVERT.
  const STORES = hexToBytes("602a60015500");
  const STORES_THEN_REVERTS = hexToBytes("602a60015560006000fd");
  const good = addressOf(200);
  const bad = addressOf(201);

  it("undoes the writes of a reverted call and keeps those of a successful one", async () => {
    const {overlay: sm, reader} = await overlay();
    await sm.putCode(at(good), STORES);
    await sm.putCode(at(bad), STORES_THEN_REVERTS);
    await sm.putStorage(at(bad), slotOf(1), hexToBytes("07"));
    await sm.putStorage(at(good), slotOf(1), hexToBytes("07"));
    const evm = await createEVM({common, stateManager: sm});

    const reverted = await evm.runCall({caller: at(USER), to: at(bad), gasLimit: 100_000n});
    expect(reverted.execResult.exceptionError?.error).toBe("revert");
    expect(await storageHex(sm, bad, 1)).toBe("07");

    const succeeded = await evm.runCall({caller: at(USER), to: at(good), gasLimit: 100_000n});
    expect(succeeded.execResult.exceptionError).toBeUndefined();
    expect(await storageHex(sm, good, 1)).toBe("2a");
    // The caller's nonce is bumped outside the call's checkpoint, once per call.
    expect((await sm.getAccount(at(USER)))?.nonce).toBe(5n);

    // Nothing reached the base.
    expect(await reader.getNonce(USER)).toBe(3n);
    expect(await reader.getAccount(good)).toBeUndefined();
  });

  it("runs base contract code and sees the base storage through the overlay", async () => {
    const {overlay: sm, reader} = await overlay();
    // SLOAD slot 1, store it at slot 5, then revert or stop depending on calldata size.
    // PUSH1 1 SLOAD PUSH1 5 SSTORE CALLDATASIZE PUSH1 0x0b JUMPI STOP JUMPDEST PUSH1 0 PUSH1 0 REVERT
    const code = hexToBytes("60015460055536600b57005b60006000fd");
    await sm.putCode(at(CONTRACT), code);
    const evm = await createEVM({common, stateManager: sm});

    const reverted = await evm.runCall({
      caller: at(USER),
      to: at(CONTRACT),
      data: hexToBytes("01"),
      gasLimit: 100_000n,
    });
    expect(reverted.execResult.exceptionError?.error).toBe("revert");
    expect(await sm.getStorage(at(CONTRACT), slotOf(5))).toEqual(EMPTY);

    const succeeded = await evm.runCall({caller: at(USER), to: at(CONTRACT), gasLimit: 100_000n});
    expect(succeeded.execResult.exceptionError).toBeUndefined();
    expect(await storageHex(sm, CONTRACT, 5)).toBe("0102");
    expect(await storageHex(sm, CONTRACT, 1)).toBe("0102");
    expect(await reader.getStorage(CONTRACT, slotOf(5))).toEqual(new Uint8Array(32));
  });
});

describe("OverlayStateManager settle", () => {
  it("settle() keeps the writes so far through a revert and makes them SSTORE's original values", async () => {
    const {overlay: sm} = await overlay();
    await sm.clearStorage(at(CONTRACT));
    await sm.putStorage(at(CONTRACT), slotOf(2), hexToBytes("33"));
    sm.settle();
    await sm.checkpoint();
    await sm.putStorage(at(CONTRACT), slotOf(2), hexToBytes("44"));
    await sm.revert();
    await sm.revert();

    expect(await storageHex(sm, CONTRACT, 1)).toBe("");
    expect(await storageHex(sm, CONTRACT, 2)).toBe("33");
    expect(await sm.originalStorageCache.get(at(CONTRACT), slotOf(2))).toEqual(hexToBytes("33"));
    expect(await sm.originalStorageCache.get(at(CONTRACT), slotOf(1))).toEqual(EMPTY);
    sm.reset();
    expect(await sm.originalStorageCache.get(at(CONTRACT), slotOf(1))).toEqual(hexToBytes("0102"));
  });
});
