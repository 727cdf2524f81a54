/**
 * debug_traceCall and the geth-compatible additions to debug_trace* over HTTP: the struct logger's
 * `gas`/`failed`/`returnValue`; `revertReason` on every reverted callTracer frame with a reason
 * (an Error(string) bubbled to the top frame, a Panic inside, none for a custom error) with
 * debug_traceTransaction, debug_traceBlockByNumber and debug_traceCall alike; debug_traceCall with
 * each tracer, state and block overrides, the tracing limits and bad input.
 */
import {compileSolidity, REVERT_REASONS_SOURCE} from "@xchain/test-utils";
import {bigIntToFixedBytes, concatBytes, keccak256, toData, toQuantity, utf8ToBytes} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {createdContractAddress} from "../../../../src/format/receipt.ts";
import {cows, signTx, TestNode} from "../../../support/node.ts";

const selector = (signature: string) => keccak256(utf8ToBytes(signature)).subarray(0, 4);
const arg = (n: bigint | Uint8Array) => bigIntToFixedBytes(typeof n === "bigint" ? n : BigInt(toData(n)), 32);
const word = (n: number) => toData(bigIntToFixedBytes(BigInt(n), 32));
const alice = cows[0]!;

let node: TestNode;
let inner: Uint8Array;
let outer: Uint8Array;
let failing: string;

const runData = (x: bigint) => toData(concatBytes(selector("run(address,uint256)"), arg(inner), arg(x)));
const callOf = (x: bigint) => ({from: toData(alice.address), to: toData(outer), data: runData(x), gas: "0x100000"});

beforeAll(async () => {
  node = await TestNode.start({rpc: {maxResponseBytes: 2_000_000}});
  const {Inner, Outer} = compileSolidity(REVERT_REASONS_SOURCE);
  const deployments = [Inner!, Outer!].map(({bytecode}, nonce) =>
    signTx(alice, {nonce: BigInt(nonce), gasLimit: 1_000_000n, data: bytecode}),
  );
  [inner, outer] = [0n, 1n].map((nonce) => createdContractAddress(alice.address, nonce)) as [Uint8Array, Uint8Array];
  await node.mine({transactions: deployments});
  const tx = signTx(alice, {
    nonce: 2n,
    to: outer,
    gasLimit: 1_048_576n,
    data: concatBytes(selector("run(address,uint256)"), arg(inner), arg(50n)),
  });
  failing = toData(tx.hash());
  await node.mine({transactions: [tx]});
});

afterAll(() => node.close());

/** The callTracer frame of a run whose checks fail: what every path must give. */
function expectRevertReasons(frame: {
  error?: string;
  revertReason?: string;
  calls: {error?: string; revertReason?: string; output?: string}[];
}): void {
  expect(frame).toMatchObject({error: "execution reverted", revertReason: "inner: too big"});
  const [overflow, custom, check] = frame.calls;
  expect(overflow).toMatchObject({error: "execution reverted", revertReason: "arithmetic underflow or overflow"});
  expect(custom).toMatchObject({
    error: "execution reverted",
    output: toData(selector("Custom(uint256)")) + word(7).slice(2),
  });
  expect(custom).not.toHaveProperty("revertReason");
  expect(check).toMatchObject({error: "execution reverted", revertReason: "inner: too big"});
}

describe("revertReason on every reverted callTracer frame", () => {
  it("debug_traceTransaction, debug_traceBlockByNumber and debug_traceCall give the same reasons", async () => {
    expectRevertReasons(await node.result("debug_traceTransaction", [failing, {tracer: "callTracer"}]));
    const [block] = await node.result("debug_traceBlockByNumber", ["0x2", {tracer: "callTracer"}]);
    expectRevertReasons(block.result);
    expectRevertReasons(await node.result("debug_traceCall", [callOf(50n), "latest", {tracer: "callTracer"}]));
  });
});

describe("struct logger: geth's top-level keys", () => {
  it("gas is the receipt's gasUsed, failed the revert, returnValue the revert data without 0x", async () => {
    const receipt = await node.result("eth_getTransactionReceipt", [failing]);
    const trace = await node.result("debug_traceTransaction", [failing, {disableStack: true, disableMemory: true}]);
    expect(receipt.status).toBe("0x0");
    expect(trace.gas).toBe(Number(receipt.gasUsed));
    expect(trace.failed).toBe(true);
    expect(trace.returnValue).toBe(trace.result);
    expect(trace.returnValue.startsWith("08c379a0")).toBe(true);
    expect(trace).toMatchObject({reverted: true, error: ""});
  });
});

describe("debug_traceCall", () => {
  it("the struct logger: the call's gas used, its output, each step; enableMemory: false leaves memory out", async () => {
    const call = {from: toData(alice.address), to: toData(outer), data: toData(selector("when()"))};
    const trace = await node.result("debug_traceCall", [call, "latest", {enableMemory: false}]);
    const head = await node.result("eth_getBlockByNumber", ["latest", false]);
    expect(trace).toMatchObject({failed: false, reverted: false, contractAddress: toData(outer).slice(2)});
    expect(trace.returnValue).toBe(word(2).slice(2) + BigInt(head.timestamp).toString(16).padStart(64, "0"));
    expect(trace.gas).toBeGreaterThan(21_000);
    expect(trace.structLogs[0]).toMatchObject({op: "PUSH1", depth: 0, pc: 0, stack: []});
    expect(trace.structLogs[0]).not.toHaveProperty("memory");
    const estimate = BigInt(await node.result("eth_estimateGas", [call, "latest"]));
    expect(BigInt(trace.gas)).toBeLessThanOrEqual(estimate);
  });

  it("the callTracer: the call's gas and gas used on the top frame; onlyTopCall", async () => {
    const frame = await node.result("debug_traceCall", [callOf(5n), "latest", {tracer: "callTracer"}]);
    expect(frame).toMatchObject({
      type: "CALL",
      from: toData(alice.address),
      to: toData(outer),
      gas: "0x100000",
      output: word(5),
    });
    expect(frame).not.toHaveProperty("error");
    expect(frame.calls).toHaveLength(3);
    const top = await node.result("debug_traceCall", [
      callOf(5n),
      "latest",
      {tracer: "callTracer", tracerConfig: {onlyTopCall: true}},
    ]);
    expect(top).toEqual({...frame, calls: undefined});
  });

  it("stateOverrides change the outcome: a higher limit makes the reverting call succeed", async () => {
    const stateOverrides = {[toData(inner)]: {stateDiff: {[word(0)]: word(1000)}}};
    const frame = await node.result("debug_traceCall", [callOf(50n), "latest", {tracer: "callTracer", stateOverrides}]);
    expect(frame).not.toHaveProperty("error");
    expect(frame.output).toBe(word(50));
    const logger = await node.result("debug_traceCall", [callOf(50n), "latest", {disableStack: true, stateOverrides}]);
    expect(logger).toMatchObject({failed: false, returnValue: word(50).slice(2)});
    // Without the override it still reverts.
    expect(await node.result("debug_traceCall", [callOf(50n), "latest", {disableStack: true}])).toMatchObject({
      failed: true,
    });
  });

  it("the prestateTracer gives the touched accounts before the call, the override included; diffMode", async () => {
    const stateOverrides = {[toData(inner)]: {stateDiff: {[word(0)]: word(1000)}}};
    const pre = await node.result("debug_traceCall", [
      callOf(50n),
      "latest",
      {tracer: "prestateTracer", stateOverrides},
    ]);
    expect(pre[toData(inner)].storage).toEqual({[word(0)]: word(1000)});
    expect(pre[toData(alice.address)]).toMatchObject({nonce: 3});
    const diff = await node.result("debug_traceCall", [
      callOf(50n),
      "latest",
      {tracer: "prestateTracer", tracerConfig: {diffMode: true}},
    ]);
    // A call that only reads changes nothing but the sender's nonce, which the message moves as geth's does.
    const sender = toData(alice.address);
    expect(diff).toEqual({post: {[sender]: {nonce: 4}}, pre: {[sender]: {balance: pre[sender].balance, nonce: 3}}});
  });

  it("blockOverrides set the block context the call sees", async () => {
    const call = {to: toData(outer), data: toData(selector("when()"))};
    const trace = await node.result("debug_traceCall", [
      call,
      "latest",
      {tracer: "callTracer", blockOverrides: {number: "0x64", time: "0x1234"}},
    ]);
    expect(trace.output).toBe(word(100) + word(0x1234).slice(2));
    const refused = await node.error("debug_traceCall", [call, "latest", {blockOverrides: {prevRandao: word(1)}}]);
    expect(refused).toEqual({
      code: -32602,
      message: "invalid argument 2 (options.blockOverrides.prevRandao): not supported on this chain",
    });
  });

  it("a trace past the response cap is refused with -32011 as debug_traceTransaction's, and the node answers", async () => {
    const spin = {to: toData(inner), data: toData(selector("spin()")), gas: toQuantity(6_000_000n)};
    expect((await node.error("debug_traceCall", [spin, "latest"])).code).toBe(-32011);
    expect(await node.result("debug_traceCall", [spin, "latest", {tracer: "callTracer"}])).toMatchObject({
      error: "out of gas",
      gasUsed: toQuantity(6_000_000n),
    });
  });

  it("bad input: a missing block, an unknown block, a gas below the intrinsic gas, value above the balance", async () => {
    const call = {to: toData(outer), data: toData(selector("when()"))};
    const stranger = toData(new Uint8Array(20).fill(0x42));
    const refusals: [unknown[], object][] = [
      [[call], {code: -32602, message: "missing value for required argument 1 (block)"}],
      [[call, "0x99"], {code: -32600}],
      [[{...call, gas: "0x5208"}, "latest"], {code: -32000, message: expect.stringContaining("intrinsic gas too low")}],
      [[{...call, from: stranger, value: "0x1"}, "latest"], {code: -32000, message: "insufficient funds for transfer"}],
    ];
    for (const [params, refusal] of refusals)
      expect(await node.error("debug_traceCall", params)).toMatchObject(refusal);
  });
});

describe("debug_traceCall where state overrides are off", () => {
  it("refuses a non-empty stateOverrides as eth_call does", async () => {
    const strict = await TestNode.start({rpc: {allowCallStateOverride: false}});
    try {
      const call = {to: toData(new Uint8Array(20).fill(9))};
      const stateOverrides = {[toData(new Uint8Array(20).fill(9))]: {balance: "0x1"}};
      const error = await strict.error("debug_traceCall", [call, "latest", {stateOverrides}]);
      expect(error).toEqual({
        code: -32602,
        message: "state override is not allowed on this node (rpc.allowCallStateOverride)",
      });
      expect(await strict.result("debug_traceCall", [call, "latest", {stateOverrides: {}}])).toMatchObject({
        failed: false,
      });
    } finally {
      await strict.close();
    }
  });
});
