/**
 * Internal errors are bugs (docs/rpc.md §7): every method of the registry, every namespace on, gets
 * the fuzz corpus in every parameter position (the other positions holding values it accepts) over
 * a chain with blocks, transactions, logs and a contract, a miner and the dev wallet. Any -32603,
 * exception or answer slower than the per-call timeout fails the walk, listed by method and params.
 * Requests go through `dispatch` in-process, as the transports call it.
 */
import {PeerScoringManager} from "@xchain/p2p";
import {toData} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {createErrorMapper} from "../src/errorMapping.ts";
import type {RpcClient} from "../src/jsonrpc/client.ts";
import {type DispatchOptions, dispatch} from "../src/jsonrpc/dispatch.ts";
import type {JsonRpcResponse} from "../src/jsonrpc/message.ts";
import {ResponseBudget, ResponseMemory} from "../src/jsonrpc/responseBudget.ts";
import {defaultRpcOptions, RPC_MODULE_NAMES} from "../src/options.ts";
import {alice, bob, buildFixture, type Fixture} from "./support/fixture.ts";
import {describeParams, EDGE_VALUES, objectVariants, toRequestText} from "./support/fuzzCorpus.ts";
import {TestNode} from "./support/node.ts";
import {probeCall} from "./support/probe.ts";
import {OPEN_PRINCIPAL} from "./support/sender.ts";

/** What counts as a hang: generous, since a loaded machine stretches a trace_filter of 64 blocks. */
const CALL_TIMEOUT_MS = 10_000;
/** The default response cap: the walk sends nothing that should come near it. */
const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
/** Positions probed for a method's arity. */
const MAX_ARITY = 5;
/** Methods that rewind the chain run last, so that the others see the fixture. */
const REWINDING = ["evm_revert", "evm_reset"];

const client: RpcClient = {address: "127.0.0.1", connectionId: 1, key: "fuzz"};
const connection = {notify: () => undefined, onClose: () => undefined};

let node: TestNode;
let fixture: Fixture;
let options: DispatchOptions;
/** The cause the error mapper logged for the last -32603. */
let lastCause: unknown;

beforeAll(async () => {
  // Requests go to `dispatch` in-process: no listener.
  node = await TestNode.start({
    listen: false,
    // anvil_mine and evm_mine take counts from the corpus (0x123 is 291 blocks): one block a call keeps the walk short.
    miner: {autoMine: false, blockTimeMs: 0, maxBlocksPerMine: 1},
    rpc: {
      modules: Object.fromEntries(RPC_MODULE_NAMES.map((name) => [name, {enabled: true}])),
      // A default trace_filter re-executes every block of the walk's chain (hundreds by then, a few
      // ms each): the range limit keeps it within the per-call timeout (ranges: modules/trace.test.ts).
      trace: {...defaultRpcOptions.trace, maxBlockRange: 64},
    },
    deps: {scoring: new PeerScoringManager()},
  });
  fixture = await buildFixture(node);
  const logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: (fields: unknown) => {
      lastCause = (fields as {err?: unknown}).err;
    },
    child: () => logger,
  };
  options = {registry: node.server.registry, maxBatchSize: 50, maxJsonDepth: 64, mapError: createErrorMapper(logger)};
});
afterAll(() => node.close());

/** What one request answered, or why it is a failure. */
type Outcome = {response: JsonRpcResponse} | {failure: string};

async function send(method: string, params: readonly unknown[]): Promise<Outcome> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => {
      abort.abort();
      resolve({failure: `no answer within ${CALL_TIMEOUT_MS} ms`});
    }, CALL_TIMEOUT_MS);
  });
  lastCause = undefined;
  const run = dispatch(toRequestText(method, params), options, {
    transport: "ws",
    client,
    connection,
    ...OPEN_PRINCIPAL,
    signal: abort.signal,
    budget: new ResponseBudget(MAX_RESPONSE_BYTES, new ResponseMemory(MAX_RESPONSE_BYTES)),
  }).then(
    ({payload}): Outcome => {
      const response = JSON.parse(payload?.toString("utf8") ?? "null") as JsonRpcResponse;
      if ("error" in response && response.error.code === -32603) {
        return {
          failure: `-32603 (${lastCause instanceof Error ? `${lastCause.name}: ${lastCause.message}` : lastCause})`,
        };
      }
      return {response};
    },
    (e: unknown): Outcome => ({failure: `threw ${e}`}),
  );
  try {
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * How well a value fits position `index`: 0 when the method took it (a result, an error of another
 * kind, or one about a later argument), 1 when only its handler refused it, undefined when it is
 * not one the method takes there.
 */
function fit(outcome: Outcome, index: number): number | undefined {
  if (!("response" in outcome) || !("error" in outcome.response)) return 0;
  const {code, message} = outcome.response.error;
  if (message.startsWith(`invalid argument ${index} `) || message.startsWith("too many arguments")) return undefined;
  return code !== -32602 || message.includes(`argument ${index + 1} `) ? 0 : 1;
}

/** Values a method may take, tried in order for each position to find one it accepts. */
function acceptedCandidates(): unknown[] {
  const contract = toData(fixture.contract);
  return [
    "latest",
    "0x1",
    toData(fixture.store.hash()),
    toData(fixture.blocks[1].hash()),
    toData(alice.address),
    contract,
    "0x0000000000000001",
    toData(fixture.store.encode()),
    // A call object and a log filter at once: each codec ignores the other's members.
    {from: toData(alice.address), to: contract, data: toData(probeCall.value()), fromBlock: "0x0", toBlock: "latest"},
    true,
    "0x",
    "logs",
    "127.0.0.1",
    "secret",
    toData(bob.address),
    1,
    [],
  ];
}

const failures: string[] = [];
let cases = 0;

async function check(method: string, params: readonly unknown[]): Promise<Outcome> {
  cases++;
  const outcome = await send(method, params);
  if ("failure" in outcome) failures.push(`${method}(${describeParams(params)}): ${outcome.failure}`);
  return outcome;
}

/**
 * Finds, position by position, the value the method takes best (the first of the best fit);
 * `arity` when a value past them was refused as one too many, undefined when no candidate fitted
 * the next position.
 */
async function discoverSeeds(method: string): Promise<{seeds: unknown[]; arity?: number}> {
  const seeds: unknown[] = [];
  for (let index = 0; index < MAX_ARITY; index++) {
    let best: {value: unknown; fit: number} | undefined;
    for (const candidate of acceptedCandidates()) {
      const outcome = await check(method, [...seeds, candidate]);
      if (
        "response" in outcome &&
        "error" in outcome.response &&
        outcome.response.error.message.startsWith("too many")
      ) {
        return {seeds, arity: index};
      }
      const candidateFit = fit(outcome, index);
      if (candidateFit !== undefined && (best === undefined || candidateFit < best.fit)) {
        best = {value: candidate, fit: candidateFit};
      }
      if (best?.fit === 0) break;
    }
    if (!best) return {seeds};
    seeds.push(best.value);
  }
  return {seeds};
}

async function walk(method: string): Promise<void> {
  await check(method, []);
  if (node.server.registry.status(method) === "unsupported") {
    for (const value of EDGE_VALUES) await check(method, [value]);
    return;
  }
  const {seeds, arity} = await discoverSeeds(method);
  await check(method, [...seeds, ...EDGE_VALUES.slice(0, MAX_ARITY + 1 - seeds.length)]);
  const positions = Math.min(arity ?? seeds.length + 1, MAX_ARITY);
  for (let index = 0; index < positions; index++) {
    const seed = seeds[index];
    const values =
      typeof seed === "object" && seed !== null && !Array.isArray(seed)
        ? [...EDGE_VALUES, ...objectVariants(seed as Record<string, unknown>)]
        : EDGE_VALUES;
    for (const value of values) {
      const params = [...seeds];
      params[index] = value;
      await check(method, params);
    }
  }
}

describe("the RPC fuzz walk", () => {
  it("answers every method and edge value without -32603, exception or hang", {timeout: 120_000}, async () => {
    const names = node.server.registry.names();
    const ordered = [...names.filter((n) => !REWINDING.includes(n)), ...REWINDING];
    const started = performance.now();
    for (const name of ordered) {
      await walk(name);
      // Whatever the method left behind (pending transactions, a clock shift, a rewind), a block can still be mined.
      await check("evm_mine", []);
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.info(`rpc fuzz walk: ${names.length} methods, ${cases} requests, ${seconds} s`);
    expect(failures).toEqual([]);
  });
});
