/**
 * The forked state (docs/architecture.md, "The forked state") run by the real block executor and
 * compared, account by account and slot by slot, with the same blocks run on the ordinary trie
 * state: the fork's base is a real local state (`readerBase`), its delta starts empty, and every
 * block after the fork point is executed on both. Covers transfers, new accounts, storage
 * overwritten, zeroed and new, a reverted transaction, SELFDESTRUCT of a base contract and of a
 * contract with base and local storage, and CREATE2 re-creating a destroyed contract (its base
 * storage must read zero).
 */
import {generateAddress, generateAddress2} from "@ethereumjs/util";
import {getChainspec} from "@xchain/chainspec";
import {MemoryStore, WriteBatch} from "@xchain/db";
import {REMASC_ADDRESS, REMASC_SENDER, type Transaction} from "@xchain/primitives";
import {
  defaultStateOptions,
  forkBaseId,
  readerBase,
  type StateBase,
  StateDatabase,
  type StateReader,
} from "@xchain/state";
import {bigIntToFixedBytes, bytesToHex, concatBytes, hexToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {ETHER, Signer} from "../support/accounts.ts";
import {DEFAULT_COINBASE, type TestBlock, TestChain} from "../support/chain.ts";

const chainspec = getChainspec("regtest");

/** EVM code from hex pieces (one instruction group per piece, commented). */
const asm = (...pieces: string[]): Uint8Array => hexToBytes(pieces.join(""));
const byte = (n: number): string => n.toString(16).padStart(2, "0");

/**
 * Runtime of the "store" contract: calldata is [slot, value] word pairs, each SSTOREd; empty
 * calldata SELFDESTRUCTs to the caller.
 */
const STORE_RUNTIME = asm(
  "3615601f57", // CALLDATASIZE ISZERO PUSH1 die JUMPI
  "6000", // PUSH1 0 (i)
  "5b", // 0x07 loop: JUMPDEST
  "80361115601d57", // DUP1 CALLDATASIZE GT ISZERO PUSH1 end JUMPI
  "8060200135", // DUP1 PUSH1 32 ADD CALLDATALOAD (value)
  "813555", // DUP2 CALLDATALOAD SSTORE
  "604001600756", // PUSH1 64 ADD PUSH1 loop JUMP
  "5b00", // 0x1d end: JUMPDEST STOP
  "5b33ff", // 0x1f die: JUMPDEST CALLER SELFDESTRUCT
);

/** Init code of the store contract: its constructor sets slot 7 to 42, then returns the runtime. */
const STORE_INIT = asm(
  "602a600755", // PUSH1 42 PUSH1 7 SSTORE
  `60${byte(STORE_RUNTIME.length)}80601060003960`, // CODECOPY(0, 16, len), PUSH1 …
  "00f3", // … 0 RETURN
  bytesToHex(STORE_RUNTIME),
);

/** Runtime of a factory: CREATE2 (salt 0) of the init code in calldata; stores the address in slot 0. */
const FACTORY_RUNTIME = asm(
  "366000600037", // CALLDATASIZE PUSH1 0 PUSH1 0 CALLDATACOPY
  "60003660006000f5", // PUSH1 0 CALLDATASIZE PUSH1 0 PUSH1 0 CREATE2
  "60005500", // PUSH1 0 SSTORE STOP
);

/** Init code returning `runtime` as is. */
function deployCode(runtime: Uint8Array): Uint8Array {
  return asm(`60${byte(runtime.length)}80600b6000396000f3`, bytesToHex(runtime));
}

const word = (n: bigint): Uint8Array => bigIntToFixedBytes(n, 32);
const stores = (...pairs: [bigint, bigint][]): Uint8Array =>
  concatBytes(...pairs.flatMap(([s, v]) => [word(s), word(v)]));
const SLOTS = Array.from({length: 13}, (_, i) => word(BigInt(i)));

/** Everything observable of `addresses` (existence, nonce, balance, code, slots 0..12) at a state. */
async function snapshot(reader: StateReader, addresses: Uint8Array[]): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const address of addresses) {
    const account = await reader.getAccount(address);
    const slots: string[] = [];
    for (const slot of SLOTS) slots.push(bytesToHex(await reader.getStorage(address, slot)));
    out[bytesToHex(address)] = {
      exists: account !== undefined,
      nonce: account?.nonce,
      balance: account?.balance,
      codeHash: account && bytesToHex(account.codeHash),
      code: bytesToHex(await reader.getCode(address)),
      slots,
    };
  }
  return out;
}

interface Fixture {
  reference: TestChain;
  fork: TestChain;
  forkStore: MemoryStore;
  base: StateBase;
  alice: Signer;
  addresses: Uint8Array[];
  store1: Uint8Array;
  store2: Uint8Array;
  factory: Uint8Array;
  created: Uint8Array;
  bob: Uint8Array;
  fresh: Uint8Array;
}

/** A chain with two blocks of contracts and storage, then a fork of its head state. */
async function fixture(): Promise<Fixture> {
  const alice = new Signer("alice");
  const bob = new Signer("bob").address;
  const reference = await TestChain.create(chainspec, [
    {address: alice.address, balance: ETHER},
    {address: bob, balance: ETHER},
  ]);
  const factory = generateAddress(alice.address, bigIntToFixedBytes(0n, 0));
  const store1 = generateAddress(alice.address, Uint8Array.of(1));
  const store2 = generateAddress(alice.address, Uint8Array.of(2));
  const created = generateAddress2(factory, new Uint8Array(32), STORE_INIT);
  const blocks = [
    [alice.sign({data: deployCode(FACTORY_RUNTIME)}), alice.sign({data: STORE_INIT}), alice.sign({data: STORE_INIT})],
    [
      alice.sign({to: store2, data: stores([3n, 3n])}),
      alice.sign({to: factory, data: STORE_INIT}),
      alice.sign({to: store1, data: stores([1n, 11n], [2n, 22n], [3n, 33n], [4n, 44n], [5n, 55n])}),
    ],
    [alice.sign({to: created, data: stores([9n, 9n])})],
  ];
  for (const transactions of blocks) {
    const block = await reference.execute(transactions);
    expect(block.result?.outcomes.map((o) => o.status)).toEqual([...transactions.map(() => true), true]);
  }
  const head = await reference.source.reader(reference.head.stateRoot, reference.common);
  expect(await head.getStorage(created, word(9n))).toEqual(word(9n));
  expect(await head.getStorage(store1, word(7n))).toEqual(word(42n));
  const base = readerBase(
    await reference.source.reader(reference.head.stateRoot, reference.common),
    forkBaseId(33n, reference.head.hash),
  );
  const forkStore = new MemoryStore();
  const forkSource = new StateDatabase(defaultStateOptions, {store: forkStore, base: {current: () => base}});
  const start = await forkSource.forkRoot(base.id);
  await forkStore.write(new WriteBatch().append(start.writes));
  const fork = TestChain.branchOf(reference, forkStore, forkSource, start.root);
  const fresh = new Uint8Array(20).fill(0x5e);
  const addresses = [
    alice.address,
    bob,
    fresh,
    factory,
    store1,
    created,
    DEFAULT_COINBASE,
    REMASC_ADDRESS,
    REMASC_SENDER,
    store2,
  ];
  return {reference, fork, forkStore, base, alice, addresses, store1, store2, factory, created, bob, fresh};
}

/**
 * Executes `transactions` as the next block on both chains; checks their statuses (`statuses`, the
 * REMASC transaction's left out), receipts, and every account and slot.
 */
async function both(
  f: Fixture,
  transactions: Transaction[],
  statuses = transactions.map(() => true),
): Promise<[TestBlock, TestBlock]> {
  const expected = await f.reference.execute(transactions);
  const actual = await f.fork.execute(transactions);
  const outcome = (b: TestBlock) => b.result?.outcomes.map((o) => [o.status, o.gasUsed, o.contractAddress]);
  expect(expected.result?.outcomes.slice(0, -1).map((o) => o.status)).toEqual(statuses);
  expect(outcome(actual)).toEqual(outcome(expected));
  const want = await snapshot(await f.reference.source.reader(expected.stateRoot, f.reference.common), f.addresses);
  const got = await snapshot(await f.fork.source.reader(actual.stateRoot, f.fork.common), f.addresses);
  expect(got).toEqual(want);
  return [expected, actual];
}

describe("a forked state over a local state, against the ordinary state", () => {
  it("gives the same accounts, code and storage after each block", async () => {
    const f = await fixture();
    // Transfers to a base account and to a new one; a base slot zeroed, one overwritten, one new.
    await both(f, [
      f.alice.sign({to: f.bob, value: 5n}),
      f.alice.sign({to: f.fresh, value: 7n}),
      f.alice.sign({to: f.store1, data: stores([1n, 0n], [2n, 99n], [10n, 5n])}),
      f.alice.sign({to: f.created, data: stores([8n, 1n])}),
    ]);
    // A transaction that runs out of gas after its first SSTORE (reverted writes), then the
    // destruction of a contract with base storage (slots 7, 9) and local storage (slot 8).
    await both(
      f,
      [
        f.alice.sign({to: f.store1, gasLimit: 30_000n, data: stores([11n, 1n], [12n, 1n])}),
        f.alice.sign({to: f.created, data: new Uint8Array(0)}),
      ],
      [false, true],
    );
    const [, destroyed] = await both(f, []);
    expect(
      await (await f.fork.source.reader(destroyed.stateRoot, f.fork.common)).getAccount(f.created),
    ).toBeUndefined();
    // CREATE2 re-creates it: its base slot 9 must read zero, slot 7 is the constructor's again.
    const [, recreated] = await both(f, [f.alice.sign({to: f.factory, data: STORE_INIT})]);
    const reader = await f.fork.source.reader(recreated.stateRoot, f.fork.common);
    expect(await reader.getStorage(f.created, word(9n))).toEqual(word(0n));
    expect(await reader.getStorage(f.created, word(7n))).toEqual(word(42n));
    // A base contract destroyed, then its address re-funded in the same block: an account without storage.
    await both(f, [f.alice.sign({to: f.store1, data: new Uint8Array(0)}), f.alice.sign({to: f.store1, value: 3n})]);
    // A base contract destroyed, and its address funded in a later block: its base slots stay hidden.
    await both(f, [f.alice.sign({to: f.store2, data: new Uint8Array(0)})]);
    await both(f, [f.alice.sign({to: f.store2, value: 1n})]);
    // The re-created contract's storage (wiped, then the constructor's) written and zeroed again.
    await both(f, [f.alice.sign({to: f.created, data: stores([8n, 3n], [7n, 0n], [9n, 4n])})]);
    await both(f, [f.alice.sign({to: f.created, data: stores([8n, 0n], [9n, 0n], [12n, 1n])})]);
  });

  it("gives the same delta root to an assembly that read skipped candidates and to a cold re-execution", async () => {
    const f = await fixture();
    const bob = new Signer("bob");
    bob.nonce = 5n; // too high: skipped, after assembly read bob's base account
    const assembled = await f.fork.assemble([
      f.alice.sign({to: f.store1, data: stores([1n, 0n], [6n, 6n])}),
      bob.sign({to: f.fresh, value: 1n}),
      f.alice.sign({to: f.fresh, value: 2n}),
    ]);
    expect(assembled.skipped.map((s) => s.transaction.nonce)).toEqual([5n]);
    // Import's re-execution: another database over the same store, caches cold, nothing of bob read.
    const cold = new StateDatabase(defaultStateOptions, {store: f.forkStore, base: {current: () => f.base}});
    const parent = f.fork.blocks[f.fork.blocks.length - 2] as TestBlock;
    const replay = TestChain.branchOf(f.reference, f.forkStore, cold, parent.stateRoot);
    const again = await replay.executor.execute({
      block: f.fork.context({}, parent),
      transactions: assembled.transactions,
      parentStateRoot: parent.stateRoot,
      chain: f.fork.view(parent),
    });
    expect(again.stateRoot).toEqual(assembled.result.stateRoot);
  });
});
