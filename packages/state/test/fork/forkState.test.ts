/**
 * The forked state's rules one by one (docs/architecture.md, "The forked state"): what the delta
 * holds hides the base (written accounts, tombstones, zeroed slots, wiped storage), reads never
 * write, the base is asked nothing it need not be, proofs and roots of another base are refused
 * with their typed errors, and the delta persists through the caller's batch and reopens alike.
 */
import {Address} from "@ethereumjs/util";
import {Bucket, type LevelStore, WriteBatch} from "@xchain/db";
import {bytesToHex, concatBytes, keccak256} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {
  buildGenesisState,
  defaultStateOptions,
  EMPTY_TRIE_ROOT,
  ForkStateReader,
  ForkStateSession,
  forkBaseId,
  readerBase,
  type StateBase,
  StateDatabase,
  StateError,
  StateErrorCode,
  type StateReader,
  verifyState,
} from "../../src/index.ts";
import {addressOf, closeStore, common, openStore, persist, slotOf} from "../helpers.ts";

const RICH = addressOf(1);
const CONTRACT = addressOf(2);
const EMPTY_STORAGE = addressOf(3);
const ABSENT = addressOf(4);
const CODE = Uint8Array.of(0x60, 0x01, 0x60, 0x00, 0x55);
const word = (n: number) => {
  const w = new Uint8Array(32);
  w[31] = n;
  return w;
};

/** A base over a real local state that counts what it is asked. */
function counting(base: StateBase): StateBase & {asked: string[]} {
  const asked: string[] = [];
  return {
    id: base.id,
    asked,
    account: (address) => {
      asked.push(`account ${bytesToHex(address)}`);
      return base.account(address);
    },
    storage: (address, slot) => {
      asked.push(`storage ${bytesToHex(address)} ${bytesToHex(slot)}`);
      return base.storage(address, slot);
    },
    code: (address, codeHash) => {
      asked.push(`code ${bytesToHex(address)}`);
      return base.code(address, codeHash);
    },
  };
}

interface Fork {
  store: LevelStore;
  state: StateDatabase;
  base: StateBase & {asked: string[]};
  holder: {base: StateBase | undefined; current(): StateBase | undefined};
  root: Uint8Array;
}

/** A local state (RICH, CONTRACT with code and slots 1, 2; EMPTY_STORAGE) and a fork of it. */
async function fork(options = defaultStateOptions): Promise<Fork> {
  const baseStore = await openStore();
  const local = new StateDatabase(defaultStateOptions, {store: baseStore});
  const genesis = await buildGenesisState(
    local,
    [
      [RICH, {balance: 100n, nonce: 3n}],
      [
        CONTRACT,
        {
          balance: 1n,
          code: CODE,
          storage: [
            [slotOf(1), word(5)],
            [slotOf(2), word(6)],
          ],
        },
      ],
      [EMPTY_STORAGE, {balance: 2n}],
    ],
    common,
  );
  await persist(baseStore, genesis);
  const base = counting(readerBase(await local.reader(genesis.root, common), forkBaseId(31n, keccak256(genesis.root))));
  const store = await openStore();
  const holder = {base: base as StateBase | undefined, current: () => holder.base};
  const state = new StateDatabase(options, {store, base: holder});
  const start = await state.forkRoot(base.id);
  await persist(store, start);
  return {store, state, base, holder, root: start.root};
}

async function view(reader: StateReader, address: Uint8Array) {
  const account = await reader.getAccount(address);
  return {
    account: account && {nonce: account.nonce, balance: account.balance},
    code: bytesToHex(await reader.getCode(address)),
    slot1: (await reader.getStorage(address, slotOf(1)))[31],
    slot2: (await reader.getStorage(address, slotOf(2)))[31],
  };
}

describe("the forked state", () => {
  it("reads the base until written, then the delta: accounts, tombstones, zeroed slots, wiped storage", async () => {
    const f = await fork();
    const start = await f.state.reader(f.root, common);
    expect(start).toBeInstanceOf(ForkStateReader);
    expect(await view(start, CONTRACT)).toEqual({
      account: {nonce: 0n, balance: 1n},
      code: bytesToHex(CODE),
      slot1: 5,
      slot2: 6,
    });
    const session = await f.state.openSession(f.root, common);
    expect(session).toBeInstanceOf(ForkStateSession);
    const sm = session.stateManager;
    await sm.checkpoint();
    await sm.putStorage(new Address(CONTRACT), slotOf(1), new Uint8Array(0));
    await sm.putStorage(new Address(CONTRACT), slotOf(3), Uint8Array.of(7));
    await sm.deleteAccount(new Address(RICH));
    await sm.modifyAccountFields(new Address(EMPTY_STORAGE), {balance: 9n});
    await sm.clearStorage(new Address(EMPTY_STORAGE));
    await sm.commit();
    const {root, writes} = await session.commit();
    await persist(f.store, {root, writes});
    const after = await f.state.reader(root, common);
    expect(await view(after, CONTRACT)).toMatchObject({account: {nonce: 0n, balance: 1n}, slot1: 0, slot2: 6});
    expect((await after.getStorage(CONTRACT, slotOf(3)))[31]).toBe(7);
    expect(await view(after, RICH)).toEqual({account: undefined, code: "", slot1: 0, slot2: 0});
    // Storage cleared: nothing of the base shows, and the reported root says empty (EIP-7610's check).
    expect((await after.getAccount(EMPTY_STORAGE))?.storageRoot).toEqual(EMPTY_TRIE_ROOT);
    // The base's code is the base's: not copied into the delta's writes.
    const codeKey = bytesToHex(concatBytes(Uint8Array.of(0x63), keccak256(CODE)));
    expect(writes.some((op) => op.key[0] === Bucket.stateTrie && bytesToHex(op.key.subarray(1)) === codeKey)).toBe(
      false,
    );
    // The start state is unchanged.
    expect((await view(await f.state.reader(f.root, common), RICH)).account).toEqual({nonce: 3n, balance: 100n});
  });

  it("stores code written locally in the delta and reads it back", async () => {
    const f = await fork();
    const session = await f.state.openSession(f.root, common);
    const code = Uint8Array.of(0x60, 0x2a, 0x00);
    await session.stateManager.putCode(new Address(ABSENT), code);
    const commit = await session.commit();
    await persist(f.store, commit);
    const reader = await f.state.reader(commit.root, common);
    expect(await reader.getCode(ABSENT)).toEqual(code);
    expect(f.base.asked.filter((q) => q.startsWith("code"))).toEqual([]);
  });

  it("asks the base for no slot of an account it lacks or knows empty", async () => {
    const f = await fork();
    const reader = await f.state.reader(f.root, common);
    expect(await reader.getStorage(ABSENT, slotOf(1))).toEqual(word(0));
    expect(await reader.getStorage(EMPTY_STORAGE, slotOf(1))).toEqual(word(0));
    expect(f.base.asked.filter((q) => q.startsWith("storage"))).toEqual([]);
    await reader.getStorage(CONTRACT, slotOf(1));
    expect(f.base.asked.filter((q) => q.startsWith("storage"))).toHaveLength(1);
  });

  it("never writes what it reads: a session that only reads commits the same root and nothing", async () => {
    const f = await fork();
    const session = await f.state.openSession(f.root, common);
    const sm = session.stateManager;
    for (const address of [RICH, CONTRACT, EMPTY_STORAGE, ABSENT]) {
      await sm.getAccount(new Address(address));
      await sm.getCode(new Address(address));
      await sm.getStorage(new Address(address), slotOf(1));
    }
    const commit = await session.commit();
    expect(commit.root).toEqual(f.root);
    expect(commit.writes).toEqual([]);
  });

  it("undoes a deletion in a reverted checkpoint: the base's and the block's slots read again", async () => {
    const f = await fork();
    const session = await f.state.openSession(f.root, common);
    const sm = session.stateManager;
    const contract = new Address(CONTRACT);
    await sm.checkpoint();
    await sm.putStorage(contract, slotOf(2), Uint8Array.of(8));
    await sm.checkpoint();
    await sm.deleteAccount(contract);
    await sm.revert();
    await sm.commit();
    const commit = await session.commit();
    const reader = await f.state.reader(commit.root, common).catch(() => undefined);
    // Not persisted: read it through the session's continuation instead.
    expect(reader).toBeUndefined();
    expect((await sm.getStorage(contract, slotOf(1)))[0]).toBe(5);
    expect((await sm.getStorage(contract, slotOf(2)))[0]).toBe(8);
    f.state.stageUnpersisted(commit);
    const staged = await f.state.reader(commit.root, common);
    expect(await view(staged, CONTRACT)).toMatchObject({slot1: 5, slot2: 8, code: bytesToHex(CODE)});
  });

  it("refuses proofs with STATE_FORK_PROOF_UNAVAILABLE", async () => {
    const f = await fork();
    const reader = await f.state.reader(f.root, common);
    for (const proof of [reader.accountProof(RICH), reader.storageProof(CONTRACT, slotOf(1))]) {
      const error = await proof.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StateError);
      expect((error as StateError).code).toBe(StateErrorCode.FORK_PROOF_UNAVAILABLE);
    }
  });

  it("refuses a root of another base with STATE_FORK_BASE_MISMATCH, and reads ordinary roots as before", async () => {
    const f = await fork();
    f.holder.base = {...f.base, id: forkBaseId(31n, new Uint8Array(32))};
    for (const open of [() => f.state.reader(f.root, common), () => f.state.openSession(f.root, common)]) {
      const error = await open().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect((error as StateError).code).toBe(StateErrorCode.FORK_BASE_MISMATCH);
    }
    const other = new StateDatabase(defaultStateOptions, {store: f.store, base: {current: () => undefined}});
    const error = await other.reader(f.root, common).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as StateError).code).toBe(StateErrorCode.FORK_BASE_MISMATCH);
    // An ordinary state on the same database: the trie reader, with proofs.
    const session = await other.openSession(EMPTY_TRIE_ROOT, common);
    await session.stateManager.modifyAccountFields(new Address(RICH), {balance: 1n});
    const commit = await session.commit();
    await persist(f.store, commit);
    const reader = await other.reader(commit.root, common);
    expect(reader).not.toBeInstanceOf(ForkStateReader);
    expect((await reader.accountProof(RICH)).length).toBeGreaterThan(0);
  });

  it("drops a cached reader when the holder answers another base (a re-fork, docs/forking.md §8)", async () => {
    const f = await fork();
    const before = await f.state.reader(f.root, common);
    expect((await before.getAccount(RICH))?.balance).toBe(100n);
    // The same fork block through a new source: same id, another object, which alone may be read.
    const again = counting(f.base);
    f.holder.base = again;
    const after = await f.state.reader(f.root, common);
    expect(after).not.toBe(before);
    expect((await after.getAccount(RICH))?.balance).toBe(100n);
    expect(new Set(again.asked)).toEqual(new Set([`account ${bytesToHex(RICH)}`]));
    // Another fork block: the cached reader of this one is refused, not reused.
    f.holder.base = {...f.base, id: forkBaseId(31n, new Uint8Array(32))};
    const error = await f.state.reader(f.root, common).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as StateError).code).toBe(StateErrorCode.FORK_BASE_MISMATCH);
  });

  it("persists through the caller's batch: a reopened database reads the same, and goes on", async () => {
    const f = await fork({...defaultStateOptions, recordPreimages: true});
    const session = await f.state.openSession(f.root, common);
    await session.stateManager.putStorage(new Address(CONTRACT), slotOf(2), Uint8Array.of(9));
    await session.stateManager.deleteAccount(new Address(RICH));
    const commit = await session.commit();
    // Preimages of the address and slot written.
    const preimages = commit.writes
      .filter((op) => op.key[0] === Bucket.preimage)
      .map((op) => (op.type === "put" ? bytesToHex(op.value) : ""));
    expect(preimages).toEqual(expect.arrayContaining([bytesToHex(CONTRACT), bytesToHex(RICH), bytesToHex(slotOf(2))]));
    await persist(f.store, commit);
    const before = await Promise.all(
      [RICH, CONTRACT, EMPTY_STORAGE].map(async (a) => view(await f.state.reader(commit.root, common), a)),
    );
    const path = f.store.path;
    await closeStore(f.store);
    const store = await openStore(path);
    const reopened = new StateDatabase(defaultStateOptions, {store, base: f.holder});
    const reader = await reopened.reader(commit.root, common);
    expect(await Promise.all([RICH, CONTRACT, EMPTY_STORAGE].map((a) => view(reader, a)))).toEqual(before);
    const next = await reopened.openSession(commit.root, common);
    await next.stateManager.modifyAccountFields(new Address(RICH), {balance: 4n});
    const second = await next.commit();
    await persist(store, second);
    const last = await reopened.reader(second.root, common);
    expect(await view(last, RICH)).toEqual({account: {nonce: 0n, balance: 4n}, code: "", slot1: 0, slot2: 0});
    expect((await view(last, CONTRACT)).slot2).toBe(9);
  });

  it("hands a released session to the next block on its root, going on from its commit", async () => {
    const f = await fork();
    const first = await f.state.openSession(f.root, common);
    await first.stateManager.modifyAccountFields(new Address(ABSENT), {balance: 1n});
    const one = await first.commit();
    first.release();
    await persist(f.store, one);
    const second = await f.state.openSession(one.root, common);
    expect(second).toBe(first);
    expect((await second.stateManager.getAccount(new Address(ABSENT)))?.balance).toBe(1n);
    await second.stateManager.modifyAccountFields(new Address(ABSENT), {balance: 2n});
    const two = await second.commit();
    await persist(f.store, two);
    expect(await (await f.state.reader(two.root, common)).getBalance(ABSENT)).toBe(2n);
    // A transient session (tracing) leaves it to the next block; a session on another root is a new one.
    second.release();
    expect(await f.state.openSession(two.root, common, {transient: true})).not.toBe(second);
    expect(await f.state.openSession(one.root, common)).not.toBe(second);
    expect(await f.state.openSession(two.root, common)).toBe(second);
  });

  it("verifies whole (marker, tombstones, the base's code not stored), and reports a missing delta node", async () => {
    const f = await fork();
    const session = await f.state.openSession(f.root, common);
    const sm = session.stateManager;
    await sm.deleteAccount(new Address(RICH));
    await sm.modifyAccountFields(new Address(CONTRACT), {balance: 3n});
    await sm.putCode(new Address(ABSENT), Uint8Array.of(0x00));
    await sm.putStorage(new Address(CONTRACT), slotOf(1), new Uint8Array(0));
    const commit = await session.commit();
    await persist(f.store, commit);
    expect(await verifyState(f.store, commit.root)).toEqual({
      nodes: expect.any(Number),
      accounts: 2,
      codes: 1,
      bytes: expect.any(Number),
      forked: true,
    });
    // The contract's storage delta: only its node, hence the store's only entry it alone references.
    const storageDelta = await ((await f.state.reader(commit.root, common)) as ForkStateReader).deltaAccount(CONTRACT);
    if (storageDelta.kind !== "written") throw new Error("the contract is written");
    await f.store.write(new WriteBatch().del(Bucket.stateTrie, storageDelta.storageDelta));
    expect((await verifyState(f.store, commit.root)).damage).toEqual({
      key: bytesToHex(storageDelta.storageDelta),
      problem: "missing",
    });
  });

  it("dumps only what the node wrote: no marker, tombstones as deleted, the base's code from the base", async () => {
    const f = await fork({...defaultStateOptions, recordPreimages: true});
    expect(await f.state.dump(f.root, {maxBytes: 1_000_000})).toEqual({
      accounts: [],
      unnamedAccounts: 0,
      unnamedSlots: 0,
      forked: true,
      deleted: [],
    });
    const session = await f.state.openSession(f.root, common);
    const sm = session.stateManager;
    await sm.deleteAccount(new Address(RICH));
    await sm.modifyAccountFields(new Address(CONTRACT), {balance: 3n});
    await sm.putStorage(new Address(CONTRACT), slotOf(1), new Uint8Array(0));
    await sm.putStorage(new Address(CONTRACT), slotOf(3), Uint8Array.of(7));
    await sm.modifyAccountFields(new Address(EMPTY_STORAGE), {balance: 9n});
    await sm.clearStorage(new Address(EMPTY_STORAGE));
    const commit = await session.commit();
    await persist(f.store, commit);
    const dump = await f.state.dump(commit.root, {maxBytes: 1_000_000});
    expect(dump).toMatchObject({unnamedAccounts: 0, unnamedSlots: 0, forked: true, deleted: [RICH]});
    // The base's slot 2 and its untouched accounts are the base's: not listed; the zeroed slot 1 is.
    expect(
      dump.accounts.map((a) => ({...a, storage: a.storage.map(([slot, value]) => [slot[31], value[31]])})),
    ).toEqual([
      {
        address: CONTRACT,
        nonce: 0n,
        balance: 3n,
        code: CODE,
        storage: [
          [1, 0],
          [3, 7],
        ],
      },
      {address: EMPTY_STORAGE, nonce: 0n, balance: 9n, code: new Uint8Array(0), storage: []},
    ]);
    expect(f.base.asked).toContain(`code ${bytesToHex(CONTRACT)}`);
  });
});
