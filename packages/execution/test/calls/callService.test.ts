// Runs the compiled worker (dist/callWorkers/callWorker.js): build with `npx tsc -b` first.
import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import type {Worker} from "node:worker_threads";
import {getChainspec} from "@xchain/chainspec";
import {LevelStore, WriteBatch} from "@xchain/db";
import {
  BlockExecutor,
  type CallInput,
  type CallResult,
  createChainCommon,
  ExecutionInterruptedError,
  TransactionInvalidError,
} from "@xchain/execution";
import {buildGenesisState, defaultStateOptions, StateDatabase, StateError} from "@xchain/state";
import {hexToBytes, noopLogger} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it, vi} from "vitest";
import {CallWorkerError} from "../../src/callWorkers/errors.ts";
import {WorkerCallExecutor} from "../../src/callWorkers/workerCallExecutor.ts";

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
const CODES: [Uint8Array, string][] = [
  [RETURNER, "0x602a60005260206000f3"],
  [REVERTER, "0x602a60005260206000fd"],
  [LOOP, "0x5b600056"],
  [LOGGER, "0x602a60005260076020600060a100"],
  [HASHER, "0x43600190034060005260206000f3"],
];
const PARENT_HASH = new Uint8Array(32).fill(0xab);
const block = {
  number: 10,
  timestamp: 1_700_000_000,
  coinbase: address(0x99),
  difficulty: 1n,
  gasLimit: 6_800_000n,
  minimumGasPrice: 0n,
};
const chain = {blockHash: async (n: number) => (n === 9 ? PARENT_HASH : undefined), maturedBlock: undefined};

let store: LevelStore;
let local: BlockExecutor;
let pool: WorkerCallExecutor;
let root: Uint8Array;

beforeAll(async () => {
  const dbPath = join(mkdtempSync(join(tmpdir(), "xchain-callworkers-")), "db");
  store = await LevelStore.open(dbPath, {threads: "share"});
  const state = new StateDatabase({...defaultStateOptions, nodeCacheBytes: 1 << 20}, {store});
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
  local = new BlockExecutor({}, {chainspec, state});
  pool = new WorkerCallExecutor(
    {
      workers: 2,
      workerData: {
        dbPath,
        network: "regtest",
        genesisFile: undefined,
        state: {...defaultStateOptions, nodeCacheBytes: 1 << 20},
      },
    },
    {local, logger: noopLogger},
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
  stateRoot: root,
  from: SENDER,
  gasLimit: 1_000_000n,
  ...fields,
});

/** A call's outcome, its error reduced to class and code. */
async function outcome(executor: {call(i: CallInput): Promise<CallResult>}, call: CallInput): Promise<unknown> {
  try {
    return await executor.call(call);
  } catch (e) {
    return {error: (e as Error).name, code: (e as {code?: string}).code};
  }
}

describe("WorkerCallExecutor", () => {
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
    expect((await pool.call(input({to: HASHER}))).returnValue).toEqual(PARENT_HASH);
  });

  it("reports each worker's caches against their budgets and its heap, summed over the workers", async () => {
    await pool.call(input({to: RETURNER}));
    // The workers report right after they are ready, then every few seconds.
    await vi.waitFor(() => expect(pool.cacheUsage()).toHaveLength(6));
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

  it("runs the calls at a root the workers could not find in-process from then on", async () => {
    const unstored = new Uint8Array(32).fill(9);
    const slots = (pool as unknown as {slots: {worker: Worker}[]}).slots;
    const posted = slots.map((slot) => vi.spyOn(slot.worker, "postMessage"));
    await expect(pool.call(input({to: RETURNER, stateRoot: unstored}))).rejects.toBeInstanceOf(StateError);
    const sent = posted.reduce((n, spy) => n + spy.mock.calls.length, 0);
    await expect(pool.call(input({to: RETURNER, stateRoot: unstored}))).rejects.toBeInstanceOf(StateError);
    expect(posted.reduce((n, spy) => n + spy.mock.calls.length, 0)).toBe(sent);
    for (const spy of posted) spy.mockRestore();
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
    expect((await pool.call(input({to: RETURNER, signal: never}))).returnValue[31]).toBe(42);
    expect(reads).toBe(0);
    const flag = {aborted: false};
    const stopped = pool.call(input({to: LOOP, gasLimit: 50_000_000n, signal: flag}));
    setTimeout(() => {
      flag.aborted = true;
    }, 50);
    await expect(stopped).rejects.toBeInstanceOf(ExecutionInterruptedError);
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
