// Starts worker threads running the compiled worker (packages/execution/dist/calls/callWorker.js):
// build with `npx tsc -b` first. The pool's thread-free parts have tests of their own beside this one.
import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import type {Worker} from "node:worker_threads";
import {getChainspec} from "@xchain/chainspec";
import {LevelStore, WriteBatch} from "@xchain/db";
import type {BlockHeader} from "@xchain/primitives";
import {buildGenesisState, defaultStateOptions, StateDatabase, StateError} from "@xchain/state";
import {NO_CHAIN_HEADERS} from "@xchain/test-utils";
import {hexToBytes, noopLogger} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it, vi} from "vitest";
import {BlockExecutor} from "../../../src/blockExecutor.ts";
import {CallService} from "../../../src/calls/callService.ts";
import {CallWorkerError} from "../../../src/calls/errors.ts";
import {createChainCommon} from "../../../src/common.ts";
import {ExecutionInterruptedError, TransactionInvalidError} from "../../../src/errors.ts";
import type {CallInput, CallResult, ExecutionChainView} from "../../../src/types.ts";
import {storeBranch} from "../../support/headerChain.ts";

const chainspec = getChainspec("regtest");
const address = (byte: number) => new Uint8Array(20).fill(byte);
const SENDER = address(0x11);
/** Returns the word 42. */
const RETURNER = address(0x21);
/** Reverts with the word 42. */
const REVERTER = address(0x22);
/** Loops forever. */
const LOOP = address(0x23);
/** Emits LOG1(topic 7, the word 42). */
const LOGGER = address(0x24);
/** Returns BLOCKHASH(number - 1). */
const HASHER = address(0x25);
/** The BlockHeader native contract. */
const BLOCK_HEADER = hexToBytes("0x0000000000000000000000000000000001000010");
/** Returns BLOCKHASH of the number in its calldata. */
const ANY_HASHER = address(0x26);
const CODES: [Uint8Array, string][] = [
  [RETURNER, "0x602a60005260206000f3"],
  [REVERTER, "0x602a60005260206000fd"],
  [LOOP, "0x5b600056"],
  [LOGGER, "0x602a60005260076020600060a100"],
  [HASHER, "0x43600190034060005260206000f3"],
  [ANY_HASHER, "0x6000354060005260206000f3"],
];
const block = {
  number: 10,
  timestamp: 1_700_000_000,
  coinbase: address(0x99),
  difficulty: 1n,
  gasLimit: 6_800_000n,
  minimumGasPrice: 0n,
};

let store: LevelStore;
let state: StateDatabase;
let local: BlockExecutor;
let pool: CallService;
let root: Uint8Array;
/** Blocks 0 to 9, stored and canonical: the call's block 10 extends block 9. */
let headers: BlockHeader[];
/** The main thread's view of the call's ancestors (what rpc's callEnvironment gives), the oracle. */
let chain: ExecutionChainView;

/** The chain view of a call in the block after the last of `branch`. */
const ancestorsOf = (branch: BlockHeader[]): ExecutionChainView => ({
  blockHash: async (n) => branch.find((h) => h.number === n)?.hash(),
  remasc: undefined,
  headers: NO_CHAIN_HEADERS,
});

beforeAll(async () => {
  const dbPath = join(mkdtempSync(join(tmpdir(), "xchain-callworkers-")), "db");
  store = await LevelStore.open(dbPath, {threads: "share"});
  state = new StateDatabase({...defaultStateOptions, nodeCacheBytes: 1 << 20}, {store});
  const genesis = await buildGenesisState(
    state,
    [
      [SENDER, {balance: 10n ** 18n}],
      ...CODES.map(([a, code]): [Uint8Array, {balance: bigint; code: Uint8Array}] => [
        a,
        {balance: 0n, code: hexToBytes(code)},
      ]),
    ],
    createChainCommon(chainspec),
  );
  await store.write(new WriteBatch().append(genesis.writes));
  root = genesis.root;
  headers = await storeBranch(store, chainspec, undefined, 10, 1);
  chain = ancestorsOf(headers);
  local = new BlockExecutor({}, {chainspec, state});
  pool = new CallService(
    {
      workers: 2,
      workerData: {dbPath, chainParams: chainspec.params, state: {...defaultStateOptions, nodeCacheBytes: 1 << 20}},
    },
    {local, state, logger: noopLogger},
  );
  await pool.ready();
});

afterAll(async () => {
  await pool.close();
  await store.close();
});

const input = (fields: Partial<CallInput>): CallInput => ({
  block,
  chain,
  parentHash: headers[9]?.hash(),
  stateRoot: root,
  from: SENDER,
  gasLimit: 1_000_000n,
  ...fields,
});

/** The pool's period of looking at the signals (callService.ts). */
const ABORT_POLL_MS = 10;

/** Calldata asking ANY_HASHER for the hash of block `n`. */
const hashOf = (n: number) => hexToBytes(`0x${n.toString(16).padStart(64, "0")}`);

/** Counts what the main thread posts to the workers from now on. */
function watchPosts(service: CallService): {posted(): number; restore(): void} {
  const slots = (service as unknown as {slots: {worker: Worker}[]}).slots;
  const spies = slots.map((slot) => vi.spyOn(slot.worker, "postMessage"));
  return {
    posted: () => spies.reduce((n, spy) => n + spy.mock.calls.length, 0),
    restore: () => {
      for (const spy of spies) spy.mockRestore();
    },
  };
}

/** A call's outcome, its error reduced to class and code. */
async function outcome(executor: {call(i: CallInput): Promise<CallResult>}, call: CallInput): Promise<unknown> {
  try {
    return await executor.call(call);
  } catch (e) {
    return {error: (e as Error).name, code: (e as {code?: string}).code};
  }
}

describe("CallService", () => {
  it("answers as the in-process executor does", async () => {
    const corpus: CallInput[] = [
      input({to: RETURNER}),
      input({to: REVERTER}),
      input({to: LOOP, gasLimit: 100_000n}),
      input({to: LOGGER}),
      input({to: HASHER}),
      input({to: address(0x55), value: 5n}),
      input({to: RETURNER, gasLimit: 20_000n}),
      input({data: hexToBytes("0x602a60005260206000f3")}),
      input({to: RETURNER, overrides: [{address: RETURNER, code: hexToBytes("0x600760005260206000f3")}]}),
    ];
    for (const call of corpus) expect(await outcome(pool, call)).toEqual(await outcome(local, call));
    const reverted = (await pool.call(input({to: REVERTER}))) as CallResult;
    expect(reverted.status).toBe(false);
    expect(reverted.revertData?.[31]).toBe(42);
    expect((await pool.call(input({to: LOOP, gasLimit: 100_000n}))).error).toBe("out of gas");
    expect((await pool.call(input({to: HASHER}))).returnValue).toEqual(headers[9]?.hash());
    for (const n of [0, 3, 9]) {
      const call = input({to: ANY_HASHER, data: hashOf(n)});
      expect((await pool.call(call)).returnValue).toEqual(headers[n]?.hash());
    }
  });

  it("answers BLOCKHASH in the worker, from the call's own chain across a reorganization", async () => {
    const watch = watchPosts(pool);
    const atA = input({to: ANY_HASHER, data: hashOf(7)});
    expect((await pool.call(atA)).returnValue).toEqual(headers[7]?.hash());
    // One message there (the call), none back and forth per BLOCKHASH.
    expect(watch.posted()).toBe(1);
    watch.restore();
    // Blocks 6 to 9 of another branch become canonical; a call at its block 10 sees them.
    const b = await storeBranch(store, chainspec, headers[5], 4, 0xb);
    expect(b[1]?.hash()).not.toEqual(headers[7]?.hash());
    const atB = input({
      to: ANY_HASHER,
      data: hashOf(7),
      parentHash: b[3]?.hash(),
      chain: ancestorsOf([...headers.slice(0, 6), ...b]),
    });
    expect((await pool.call(atB)).returnValue).toEqual(b[1]?.hash());
    expect(await outcome(pool, atB)).toEqual(await outcome(local, atB));
    // The first branch's block, now off the canonical chain, still sees its own ancestors.
    expect((await pool.call(atA)).returnValue).toEqual(headers[7]?.hash());
    expect(await outcome(pool, atA)).toEqual(await outcome(local, atA));
  });

  it("runs again on the main thread a call that reaches the BlockHeader contract, which a worker cannot answer", async () => {
    const inProcess = vi.spyOn(local, "call");
    const view: ExecutionChainView = {
      ...chain,
      headers: {...NO_CHAIN_HEADERS, headerAt: async (n) => headers.find((h) => h.number === n)},
    };
    // getBlockHash(0): the hash of block 9, the parent of the call's block.
    const call = input({to: BLOCK_HEADER, data: hexToBytes(`0x2cce81aa${"0".repeat(64)}`), chain: view});
    const answer = await pool.call(call);
    expect(answer.returnValue.subarray(64)).toEqual(headers[9]?.hash());
    expect(inProcess).toHaveBeenCalledTimes(1);
    expect(await outcome(pool, call)).toEqual(await outcome(local, call));
    inProcess.mockRestore();
  });

  it("reports each worker's caches against their budgets and its heap, summed over the workers", async () => {
    await pool.call(input({to: RETURNER}));
    // The workers report right after they are ready, then every few seconds.
    await vi.waitFor(() => expect(pool.cacheUsage()).toHaveLength(6), {timeout: 20_000});
    const trieNodes = pool.cacheUsage().filter((c) => c.cache === "callWorkers.trieNodes");
    expect(trieNodes).toHaveLength(2);
    for (const c of trieNodes) expect(c.budgetBytes).toBe(1 << 20);
    expect(pool.cacheUsage().map((c) => c.cache)).toContain("callWorkers.readers");
    expect(pool.heapUsedBytes()).toBeGreaterThan(1 << 20);
  });

  it("keeps the typed errors: intrinsic gas too low, a state that is not stored", async () => {
    await expect(pool.call(input({to: RETURNER, gasLimit: 1_000n}))).rejects.toBeInstanceOf(TransactionInvalidError);
    await expect(pool.call(input({to: RETURNER, stateRoot: new Uint8Array(32).fill(7)}))).rejects.toBeInstanceOf(
      StateError,
    );
  });

  it("runs a call at a root the state database staged in-process, as it does a call without its parentHash", async () => {
    // The pending block's state: computed on the main thread, staged there, never stored.
    const pending = await buildGenesisState(
      new StateDatabase(defaultStateOptions, {store}),
      [[RETURNER, {balance: 0n, code: hexToBytes("0x600760005260206000f3")}]],
      createChainCommon(chainspec),
    );
    state.stageUnpersisted(pending);
    const watch = watchPosts(pool);
    expect((await pool.call(input({to: RETURNER, stateRoot: pending.root}))).returnValue[31]).toBe(7);
    expect((await pool.call(input({to: RETURNER, parentHash: undefined}))).returnValue[31]).toBe(42);
    expect(watch.posted()).toBe(0);
    // A root neither stored nor staged goes to a worker, whose answer is the main thread's.
    const unknown = new Uint8Array(32).fill(9);
    await expect(pool.call(input({to: RETURNER, stateRoot: unknown}))).rejects.toBeInstanceOf(StateError);
    await expect(local.call(input({to: RETURNER, stateRoot: unknown}))).rejects.toBeInstanceOf(StateError);
    expect(watch.posted()).toBe(1);
    watch.restore();
  });

  it("runs a call on a forked chain in-process, BLOCKHASH at or below the fork block from the view's ancestry", async () => {
    // A worker reads stored headers only: it would answer block 4's local hash, not the upstream's.
    const upstreamHash = (n: number) => new Uint8Array(32).fill(0xa0 + n);
    const forkAncestry = {number: 5, hashAt: async (n: number) => (n <= 5 ? upstreamHash(n) : undefined)};
    const watch = watchPosts(pool);
    const forked = input({to: ANY_HASHER, chain: {...chain, forkAncestry}});
    expect((await pool.call({...forked, data: hashOf(4)})).returnValue).toEqual(upstreamHash(4));
    expect((await pool.call({...forked, data: hashOf(7)})).returnValue).toEqual(headers[7]?.hash());
    expect(watch.posted()).toBe(0);
    watch.restore();
  });

  it("runs every call in-process without workers", async () => {
    const inProcess = new CallService(
      {workers: 0, workerData: {dbPath: "unused", chainParams: chainspec.params, state: defaultStateOptions}},
      {local, state, logger: noopLogger},
    );
    await inProcess.ready();
    expect(await outcome(inProcess, input({to: HASHER}))).toEqual(await outcome(local, input({to: HASHER})));
    expect(inProcess.cacheUsage()).toEqual([]);
    expect(inProcess.heapUsedBytes()).toBe(0);
    await inProcess.close();
  });

  it("stops an aborted call with ExecutionInterruptedError and serves the next", async () => {
    const controller = new AbortController();
    const running = pool.call(input({to: LOOP, gasLimit: 50_000_000n, signal: controller.signal}));
    setTimeout(() => controller.abort(), 50);
    await expect(running).rejects.toBeInstanceOf(ExecutionInterruptedError);
    expect((await pool.call(input({to: RETURNER}))).returnValue[31]).toBe(42);
  });

  it("reads no signal of a call that ends before a poll, and stops one whose signal reads aborted later", async () => {
    let reads = 0;
    const never = {
      get aborted() {
        reads++;
        return false;
      },
    };
    // The polls run on the test's clock, so that a loaded machine cannot slow the call past one.
    vi.useFakeTimers({toFake: ["setInterval", "clearInterval"]});
    try {
      expect((await pool.call(input({to: RETURNER, signal: never}))).returnValue[31]).toBe(42);
      expect(reads).toBe(0);
      const flag = {aborted: false};
      const stopped = pool.call(input({to: LOOP, gasLimit: 50_000_000n, signal: flag}));
      vi.advanceTimersByTime(ABORT_POLL_MS);
      flag.aborted = true;
      vi.advanceTimersByTime(ABORT_POLL_MS);
      await expect(stopped).rejects.toBeInstanceOf(ExecutionInterruptedError);
    } finally {
      vi.useRealTimers();
    }
  });

  it("fails the calls of a worker that dies with CallWorkerError and replaces the worker", async () => {
    const running = Promise.all([1, 2].map(() => pool.call(input({to: LOOP, gasLimit: 50_000_000n}))));
    const slots = (pool as unknown as {slots: {worker: Worker}[]}).slots;
    await new Promise((resolve) => setTimeout(resolve, 50));
    void slots[0]?.worker.terminate();
    await expect(running).rejects.toBeInstanceOf(CallWorkerError);
    await pool.ready();
    const results = await Promise.all([1, 2, 3, 4].map(() => pool.call(input({to: RETURNER}))));
    for (const r of results) expect(r.returnValue[31]).toBe(42);
  });
});
