/**
 * debug_traceTransaction / debug_traceBlockByHash / debug_traceBlockByNumber over HTTP: the struct
 * logger (rskj's keys and geth's gas, failed and returnValue) and the callTracer on nested calls, a
 * revert with a reason and an out-of-gas call inside a successful transaction, a precompile, CREATE2, SELFDESTRUCT, a transfer and REMASC; the options,
 * unknown tracers, transactions and blocks, genesis, and a long loop stopped by the response cap.
 */
import type {Transaction} from "@xchain/primitives";
import {compileSolidity} from "@xchain/test-utils";
import {bigIntToFixedBytes, concatBytes, keccak256, toData, utf8ToBytes} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {createdContractAddress} from "../../../../src/format/receipt.ts";
import {cows, signTx, TestNode} from "../../../support/node.ts";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract Child {
  uint256 public count;
  event Counted(uint256 n);
  function ping(uint256 x) external returns (uint256) { count += x; emit Counted(count); return x + 1; }
  function fail() external pure { revert("child says no"); }
  function spin() external { while (true) { count += 1; } }
  function bye(address payable to) external { selfdestruct(to); }
}
contract Parent {
  event Before(uint256 a);
  event After(uint256 a);
  function run(address c) external returns (uint256 r) {
    emit Before(1);
    r = Child(c).ping(1);
    emit After(r);
    (bool ok, ) = c.call(abi.encodeWithSignature("fail()"));
    (ok, ) = c.call{gas: 50000}(abi.encodeWithSignature("spin()"));
    (ok, ) = address(4).staticcall("hi");
    Child made = new Child{salt: bytes32(uint256(1))}();
    made.bye(payable(msg.sender));
  }
}`;

const selector = (signature: string) => keccak256(utf8ToBytes(signature)).subarray(0, 4);
const [alice, carol, dave] = [cows[0]!, cows[2]!, cows[3]!];
const hexOf = (address: Uint8Array) => toData(address);

let node: TestNode;
let child: Uint8Array;
let parent: Uint8Array;
let run: Transaction;
let transfer: Transaction;
let spin: Transaction;

beforeAll(async () => {
  node = await TestNode.start({rpc: {maxResponseBytes: 2_000_000}});
  const {Child, Parent} = compileSolidity(SOURCE);
  const deployChild = signTx(alice, {nonce: 0n, gasLimit: 2_000_000n, data: Child!.bytecode});
  const deployParent = signTx(alice, {nonce: 1n, gasLimit: 3_000_000n, data: Parent!.bytecode});
  child = createdContractAddress(alice.address, 0n);
  parent = createdContractAddress(alice.address, 1n);
  await node.mine({transactions: [deployChild, deployParent]});
  const argument = bigIntToFixedBytes(BigInt(hexOf(child)), 32);
  run = signTx(alice, {
    nonce: 2n,
    to: parent,
    gasLimit: 3_000_000n,
    data: concatBytes(selector("run(address)"), argument),
  });
  transfer = signTx(carol, {nonce: 0n, to: dave.address, value: 5n});
  await node.mine({transactions: [run, transfer]});
  // An endless loop that burns its whole gas limit: hundreds of thousands of steps.
  spin = signTx(alice, {nonce: 3n, to: child, gasLimit: 6_000_000n, data: selector("spin()")});
  await node.mine({transactions: [spin]});
});

afterAll(() => node.close());

const word = (n: number) => n.toString(16).padStart(64, "0");

describe("callTracer", () => {
  it("writes geth's frames: nested calls, a revert with its reason, out of gas, a precompile, CREATE2, SELFDESTRUCT", async () => {
    const receipt = await node.result("eth_getTransactionReceipt", [toData(run.hash())]);
    const trace = await node.result("debug_traceTransaction", [toData(run.hash()), {tracer: "callTracer"}]);
    expect(Object.keys(trace)).toEqual(["type", "from", "to", "value", "gas", "gasUsed", "input", "output", "calls"]);
    expect(trace).toMatchObject({
      type: "CALL",
      from: hexOf(alice.address),
      to: hexOf(parent),
      value: "0x0",
      gas: "0x2dc6c0",
      gasUsed: receipt.gasUsed,
      output: `0x${word(2)}`,
    });
    const [ping, fail, outOfGas, precompile, create2, bye] = trace.calls;
    expect(ping).toEqual({
      type: "CALL",
      from: hexOf(parent),
      to: hexOf(child),
      value: "0x0",
      gas: ping.gas,
      gasUsed: ping.gasUsed,
      input: toData(concatBytes(selector("ping(uint256)"), bigIntToFixedBytes(1n, 32))),
      output: `0x${word(2)}`,
    });
    expect(fail).toMatchObject({
      input: toData(selector("fail()")),
      error: "execution reverted",
      revertReason: "child says no",
    });
    expect(fail.output.startsWith("0x08c379a0")).toBe(true);
    expect(outOfGas).toEqual({
      type: "CALL",
      from: hexOf(parent),
      to: hexOf(child),
      value: "0x0",
      gas: "0xc350",
      gasUsed: "0xc350",
      input: toData(selector("spin()")),
      error: "out of gas",
    });
    expect(precompile).toEqual({
      type: "STATICCALL",
      from: hexOf(parent),
      to: "0x0000000000000000000000000000000000000004",
      gas: precompile.gas,
      gasUsed: "0x12",
      input: "0x6869",
      output: "0x6869",
    });
    expect(create2.type).toBe("CREATE2");
    expect(create2.to).toMatch(/^0x[0-9a-f]{40}$/);
    // A create frame's output is the runtime code.
    expect(create2.output).toBe(await node.result("eth_getCode", [hexOf(child), "latest"]));
    expect(bye.to).toBe(create2.to);
    expect(bye.calls).toEqual([
      {
        type: "SELFDESTRUCT",
        from: create2.to,
        to: hexOf(alice.address),
        value: "0x0",
        gas: "0x0",
        gasUsed: "0x0",
        input: "0x",
      },
    ]);
    expect(trace.logs).toBeUndefined();
  });

  it("onlyTopCall drops the sub-calls; withLog adds each frame's own logs with their position", async () => {
    const top = await node.result("debug_traceTransaction", [
      toData(run.hash()),
      {tracer: "callTracer", tracerConfig: {onlyTopCall: true}},
    ]);
    expect(top.calls).toBeUndefined();
    const logged = await node.result("debug_traceTransaction", [
      toData(run.hash()),
      {tracer: "callTracer", tracerConfig: {withLog: true}},
    ]);
    expect(logged.logs.map((l: {position: string; data: string}) => [l.position, l.data])).toEqual([
      ["0x0", `0x${word(1)}`],
      ["0x1", `0x${word(2)}`],
    ]);
    expect(logged.calls[0].logs).toEqual([
      {
        address: hexOf(child),
        topics: [toData(keccak256(utf8ToBytes("Counted(uint256)")))],
        data: `0x${word(1)}`,
        position: "0x0",
      },
    ]);
    expect(logged.calls[1].logs).toBeUndefined();
  });

  it("a transfer is one CALL charged its receipt's gas; a block lists every transaction with REMASC", async () => {
    const block = await node.result("debug_traceBlockByNumber", ["0x2", {tracer: "callTracer"}]);
    expect(block.map((entry: {txHash: string}) => entry.txHash)).toHaveLength(3);
    expect(block[0].txHash).toBe(toData(run.hash()));
    expect(block[1]).toEqual({
      txHash: toData(transfer.hash()),
      result: {
        type: "CALL",
        from: hexOf(carol.address),
        to: hexOf(dave.address),
        value: "0x5",
        gas: "0x5208",
        gasUsed: "0x5208",
        input: "0x",
      },
    });
    expect(block[2].result).toMatchObject({type: "CALL", to: "0x0000000000000000000000000000000001000008"});
    const byHash = await node.result("eth_getBlockByNumber", ["0x2", false]);
    expect(await node.result("debug_traceBlockByHash", [byHash.hash, {tracer: "callTracer"}])).toEqual(block);
  });
});

describe("struct logger", () => {
  it("writes rskj's keys and each step with gas, cost, depth, memory, stack and touched storage", async () => {
    const trace = await node.result("debug_traceTransaction", [toData(run.hash())]);
    expect(Object.keys(trace)).toEqual([
      "contractAddress",
      "initStorage",
      "structLogs",
      "result",
      "error",
      "reverted",
      "storageSize",
      "currentStorage",
      "gas",
      "failed",
      "returnValue",
    ]);
    expect(trace).toMatchObject({
      contractAddress: hexOf(parent).slice(2),
      initStorage: {},
      result: word(2),
      error: "",
      reverted: false,
      storageSize: 0,
      currentStorage: {},
      gas: Number((await node.result("eth_getTransactionReceipt", [toData(run.hash())])).gasUsed),
      failed: false,
      returnValue: word(2),
    });
    // The first op has the gas left after the intrinsic gas.
    expect(trace.structLogs[0]).toEqual({
      op: "PUSH1",
      depth: 0,
      pc: 0,
      gas: trace.structLogs[0].gas,
      gasCost: 3,
      memory: [],
      stack: [],
      storage: {},
    });
    expect(trace.structLogs[1].stack).toEqual([word(0x80)]);
    expect(trace.structLogs[3].memory).toEqual([word(0), word(0), word(0x80)]);
    const sload = trace.structLogs.find((l: {op: string}) => l.op === "SLOAD");
    expect(sload.depth).toBe(1);
    expect(sload.storage).toEqual({[word(0)]: word(0)});
    const sstore = trace.structLogs.find((l: {op: string}) => l.op === "SSTORE");
    expect(sstore).toMatchObject({gasCost: 20000, storage: {[word(0)]: word(1)}});
  });

  it("the child's storage: initStorage holds the slots first read, currentStorage the last values", async () => {
    const ping = signTx(alice, {
      nonce: 4n,
      to: child,
      gasLimit: 100_000n,
      data: concatBytes(selector("ping(uint256)"), bigIntToFixedBytes(5n, 32)),
    });
    await node.mine({transactions: [ping]});
    const trace = await node.result("debug_traceTransaction", [toData(ping.hash())]);
    expect(trace).toMatchObject({
      contractAddress: hexOf(child).slice(2),
      initStorage: {[word(0)]: word(1)},
      storageSize: 1,
      currentStorage: {[word(0)]: word(6)},
      result: word(6),
    });
  });

  it("disableStack, disableMemory and disableStorage leave their keys out", async () => {
    const trace = await node.result("debug_traceTransaction", [
      toData(run.hash()),
      {disableStack: true, tracerConfig: {disableMemory: "true"}, disableStorage: true},
    ]);
    expect(trace.structLogs[0]).toEqual({op: "PUSH1", depth: 0, pc: 0, gas: trace.structLogs[0].gas, gasCost: 3});
  });

  it("a transfer runs no code: empty structLogs", async () => {
    expect(await node.result("debug_traceTransaction", [toData(transfer.hash())])).toEqual({
      contractAddress: hexOf(dave.address).slice(2),
      initStorage: {},
      structLogs: [],
      result: "",
      error: "",
      reverted: false,
      storageSize: 0,
      currentStorage: {},
      gas: 21_000,
      failed: false,
      returnValue: "",
    });
  });

  it("a long loop stops at the response cap with -32011, and the node still answers", async () => {
    const error = await node.error("debug_traceTransaction", [toData(spin.hash())]);
    expect(error.code).toBe(-32011);
    expect(await node.result("eth_blockNumber")).toBe("0x4");
    const calls = await node.result("debug_traceTransaction", [toData(spin.hash()), {tracer: "callTracer"}]);
    expect(calls).toMatchObject({error: "out of gas", gasUsed: "0x5b8d80"});
  });
});

describe("missing and bad input", () => {
  it("unknown transaction or block: null; genesis: []", async () => {
    const unknown = toData(new Uint8Array(32).fill(7));
    expect(await node.result("debug_traceTransaction", [unknown])).toBeNull();
    expect(await node.result("debug_traceBlockByHash", [unknown])).toBeNull();
    expect(await node.result("debug_traceBlockByNumber", ["0x99"])).toBeNull();
    expect(await node.result("debug_traceBlockByNumber", ["earliest"])).toEqual([]);
    expect(await node.result("debug_traceBlockByNumber", ["0x0", {tracer: "callTracer"}])).toEqual([]);
  });

  it("an unknown tracer is -32602 naming the tracers served", async () => {
    const error = await node.error("debug_traceTransaction", [toData(run.hash()), {tracer: "4byteTracer"}]);
    expect(error).toEqual({
      code: -32602,
      message:
        'invalid argument 1 (options.tracer): unknown tracer "4byteTracer"; served: rskTracer, callTracer, prestateTracer',
    });
    expect((await node.error("debug_traceBlockByNumber", ["0x2", {withLog: 1}])).code).toBe(-32602);
  });

  it("the block methods wrap the struct logger's results too", async () => {
    const block = await node.result("debug_traceBlockByNumber", ["latest", {disableMemory: true, disableStack: true}]);
    expect(block).toHaveLength(2);
    expect(Object.keys(block[0])).toEqual(["txHash", "result"]);
    expect(block[1].result.structLogs).toEqual([]);
  });
});
