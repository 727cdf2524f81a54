/**
 * Calls give the event loop back and stop when told (preemption.ts): an endless loop under a large
 * gas limit neither holds the thread nor outlives its signal, and the pauses change no gas figure.
 * A traced call (debug_traceCall) is told to its tracer as one transaction of its sender, with the
 * outcome of the same call, and is preempted and stopped the same way.
 */
import {getChainspec} from "@xchain/chainspec";
import {hexToBytes} from "@xchain/utils";
import {beforeAll, describe, expect, it} from "vitest";
import {ExecutionInterruptedError} from "../../src/errors.ts";
import {intrinsicGas} from "../../src/intrinsic.ts";
import type {ExecutionTracer, TracedTransaction} from "../../src/tracing/types.ts";
import type {CallInput, TransactionOutcome} from "../../src/types.ts";
import {ETHER, Signer} from "../support/accounts.ts";
import {TestChain} from "../support/chain.ts";

/** JUMPDEST PUSH1 0 JUMP: loops until the gas runs out. */
const ENDLESS = hexToBytes("0x5b600056");
/** Counts 1,000 down to zero in a JUMPI loop, then stops. */
const COUNTED = hexToBytes("0x6103e85b600190038060035700");

const chainspec = getChainspec("regtest");
const alice = new Signer("alice");
let chain: TestChain;

beforeAll(async () => {
  chain = await TestChain.create(chainspec, [{address: alice.address, balance: ETHER}]);
});

const input = (data: Uint8Array, gasLimit: bigint, signal?: AbortSignal): CallInput => ({
  block: chain.context(),
  chain: chain.view(),
  stateRoot: chain.head.stateRoot,
  from: alice.address,
  data,
  gasLimit,
  ...(signal ? {signal} : {}),
});

/**
 * A signal aborted once the event loop has turned `turns` times (a `setImmediate` chain): it can
 * only be aborted if the work running meanwhile gives the loop back. A count of turns, not a time.
 */
function abortedAfterTurns(turns: number): AbortSignal {
  const controller = new AbortController();
  let left = turns;
  const turn = () => {
    if (--left === 0) controller.abort();
    else setImmediate(turn);
  };
  setImmediate(turn);
  return controller.signal;
}

describe("preempted calls", () => {
  it("stop when their signal is aborted, without holding the event loop meanwhile", async () => {
    // Ten turns of the loop while the call runs, then the abort: a call that held the loop would
    // run until its 50M gas are spent and end with status false instead.
    const run = chain.executor.call(input(ENDLESS, 50_000_000n, abortedAfterTurns(10)));
    expect(await run.catch((e: unknown) => e)).toBeInstanceOf(ExecutionInterruptedError);
  });

  it("run side by side, and the node's calls work normally after interrupted ones", async () => {
    const signal = AbortSignal.timeout(150);
    const runs = Array.from({length: 8}, () => chain.executor.call(input(ENDLESS, 50_000_000n, signal)));
    const outcomes = await Promise.all(runs.map((run) => run.catch((e: unknown) => e)));
    for (const outcome of outcomes) expect(outcome).toBeInstanceOf(ExecutionInterruptedError);
    const result = await chain.executor.call(input(COUNTED, 1_000_000n));
    expect(result.status).toBe(true);
  });

  it("an aborted signal stops the call before its slice ends", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(chain.executor.call(input(ENDLESS, 50_000_000n, controller.signal))).rejects.toBeInstanceOf(
      ExecutionInterruptedError,
    );
  });

  it("charge the gas a block charges for the same code", async () => {
    const called = await chain.executor.call(input(COUNTED, 1_000_000n));
    const block = await chain.execute([alice.sign({data: COUNTED, gasLimit: 1_000_000n})]);
    const mined = block.result?.outcomes[0];
    expect(mined?.status).toBe(true);
    expect(called.gasUsed).toBe(mined?.gasUsed);
    // And running out of gas costs it all, as before.
    const exhausted = await chain.executor.call(input(ENDLESS, 200_000n));
    expect(exhausted.status).toBe(false);
    expect(exhausted.gasUsed).toBe(200_000n);
  });
});

describe("traced calls (BlockExecutor.traceCall, debug_traceCall)", () => {
  it("tells the tracer one transaction of the call's sender, its frames and steps, and the call's outcome", async () => {
    const events: string[] = [];
    let steps = 0;
    let started: TracedTransaction | undefined;
    let ended: TransactionOutcome | undefined;
    const tracer: ExecutionTracer = {
      transactionStart: (tx) => {
        started = tx;
        events.push("start");
      },
      frameStart: (frame) => events.push(`frame ${frame.kind} ${frame.depth}`),
      frameEnd: (frame) => events.push(`end ${frame.error ?? "ok"}`),
      step: () => {
        steps++;
      },
      transactionEnd: (_tx, outcome) => {
        ended = outcome;
        events.push("tx end");
      },
    };
    const traced = await chain.executor.traceCall(input(COUNTED, 1_000_000n), tracer);
    const plain = await chain.executor.call(input(COUNTED, 1_000_000n));
    expect(events).toEqual(["start", "frame create 0", "end ok", "tx end"]);
    expect(steps).toBeGreaterThan(5_000);
    expect(traced).toEqual(plain);
    expect(started?.transaction.sender()).toEqual(alice.address);
    expect(started).toMatchObject({
      index: 0,
      gasLimit: 1_000_000n,
      intrinsicGas: intrinsicGas({to: undefined, data: COUNTED}),
    });
    expect(ended).toMatchObject({status: true, gasUsed: plain.gasUsed, fee: 0n});
  });

  it("stops when its signal is aborted, without holding the event loop meanwhile", async () => {
    // A traced call that held the loop would run until its 50M gas are spent and end out of gas instead.
    const run = chain.executor.traceCall(input(ENDLESS, 50_000_000n, abortedAfterTurns(10)), {step: () => {}});
    expect(await run.catch((e: unknown) => e)).toBeInstanceOf(ExecutionInterruptedError);
  });
});
