// End-to-end: what geth-compatible debuggers read from debug_trace* on a real regtest node, asked
// through viem's `client.request` (docs/protocol/debug-traces.md): the struct logger's `gas` (the
// receipt's gasUsed), `failed` and `returnValue` beside rskj's keys; `revertReason` on every
// reverted callTracer frame with a reason (an Error(string) bubbled up to the top frame, a panic in
// an inner frame, none for a custom error); debug_traceCall with each tracer and with a
// `stateOverrides` that turns a revert into a success; and a trace past the response cap refused by
// debug_traceCall as debug_traceTransaction refuses it.
import {compileSolidity, REVERT_REASONS_SOURCE} from "@xchain/test-utils";
import {bytesToPrefixedHex} from "@xchain/utils";
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  decodeErrorResult,
  encodeFunctionData,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  parseAbi,
  toBytes,
} from "viem";
import {privateKeyToAccount} from "viem/accounts";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {regtestChain} from "../support/viemChain.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

const account = privateKeyToAccount(keccak256(toBytes("cow1")));
const OUTER_ABI = parseAbi(["function run(address inner, uint256 x) returns (uint256)"]);
const INNER_ABI = parseAbi(["function spin()"]);
const word = (n: bigint) => n.toString(16).padStart(64, "0");

interface Frame {
  type: string;
  gas: Hex;
  gasUsed: Hex;
  output?: Hex;
  error?: string;
  revertReason?: string;
  calls?: Frame[];
}
interface StructLoggerResult {
  gas: number;
  failed: boolean;
  returnValue: string;
  structLogs: unknown[];
  result: string;
  reverted: boolean;
}

let node: RunningNode;
let client: PublicClient;
let inner: Address;
let outer: Address;
let reverted: Hex;
let succeeded: Hex;
let spin: Hex;

/** A JSON-RPC request through viem's client (the debug methods are not in its typed method list). */
const request = <T>(method: string, params: unknown[]): Promise<T> =>
  client.request({method, params} as never) as Promise<T>;
const runCall = (x: bigint) => ({
  from: account.address,
  to: outer,
  data: encodeFunctionData({abi: OUTER_ABI, functionName: "run", args: [inner, x]}),
  gas: "0x100000",
});

beforeAll(async () => {
  node = await startNode(["--p2p.enabled", "false"]);
  const chain = regtestChain(node.httpUrl);
  const transport = http(node.httpUrl);
  client = createPublicClient({chain, transport, pollingInterval: 50});
  const wallet = createWalletClient({account, chain, transport});
  const compiled = compileSolidity(REVERT_REASONS_SOURCE);
  const deploy = async (name: "Inner" | "Outer") => {
    const {abi, bytecode} = compiled[name]!;
    const hash = await wallet.deployContract({
      abi: abi as Abi,
      bytecode: bytesToPrefixedHex(bytecode) as Hex,
      type: "legacy",
    });
    return (await client.waitForTransactionReceipt({hash})).contractAddress as Address;
  };
  inner = await deploy("Inner");
  outer = await deploy("Outer");
  const send = async (to: Address, data: Hex, gas: bigint) => {
    const hash = await wallet.sendTransaction({to, data, gas, type: "legacy"});
    await client.waitForTransactionReceipt({hash});
    return hash;
  };
  reverted = await send(outer, runCall(50n).data, 1_000_000n);
  succeeded = await send(outer, runCall(5n).data, 1_000_000n);
  // An endless loop that burns 6M gas: hundreds of thousands of steps, far past the response cap as struct logs.
  spin = await send(inner, encodeFunctionData({abi: INNER_ABI, functionName: "spin"}), 6_000_000n);
}, 120_000);

afterAll(async () => {
  await node?.stop();
});

/** What every path gives for run(inner, 50): the bubbled reason on top, a panic and a custom error inside. */
function expectRevertReasons(frame: Frame): void {
  expect(frame).toMatchObject({error: "execution reverted", revertReason: "inner: too big"});
  const [overflow, custom, check] = frame.calls ?? [];
  expect(overflow).toMatchObject({error: "execution reverted", revertReason: "arithmetic underflow or overflow"});
  expect(custom?.error).toBe("execution reverted");
  expect(custom).not.toHaveProperty("revertReason");
  expect(check).toMatchObject({error: "execution reverted", revertReason: "inner: too big"});
}

describe("struct logger: geth's gas, failed and returnValue beside rskj's keys", () => {
  it("a reverted transaction: gas is the receipt's gasUsed, failed, the revert data as returnValue", async () => {
    const receipt = await client.getTransactionReceipt({hash: reverted});
    const trace = await request<StructLoggerResult>("debug_traceTransaction", [reverted, {disableMemory: true}]);
    expect(receipt.status).toBe("reverted");
    expect(trace.gas).toBe(Number(receipt.gasUsed));
    expect(trace).toMatchObject({failed: true, reverted: true});
    expect(trace.returnValue).toBe(trace.result);
    const decoded = decodeErrorResult({abi: [], data: `0x${trace.returnValue}`});
    expect(decoded.args).toEqual(["inner: too big"]);
    expect(trace.structLogs.length).toBeGreaterThan(100);
  });

  it("a successful transaction: not failed, its output as returnValue", async () => {
    const receipt = await client.getTransactionReceipt({hash: succeeded});
    const trace = await request<StructLoggerResult>("debug_traceTransaction", [succeeded, {disableMemory: true}]);
    expect(trace).toMatchObject({gas: Number(receipt.gasUsed), failed: false, returnValue: word(5n)});
  });
});

describe("callTracer: revertReason on the top frame and the inner frames", () => {
  it("debug_traceTransaction and debug_traceBlockByHash", async () => {
    expectRevertReasons(await request<Frame>("debug_traceTransaction", [reverted, {tracer: "callTracer"}]));
    const {blockHash} = await client.getTransactionReceipt({hash: reverted});
    const block = await request<{txHash: Hex; result: Frame}[]>("debug_traceBlockByHash", [
      blockHash,
      {tracer: "callTracer"},
    ]);
    const entry = block.find((e) => e.txHash === reverted);
    expectRevertReasons(entry?.result as Frame);
  });
});

describe("debug_traceCall", () => {
  it("with the struct logger: the call's outcome in geth's keys", async () => {
    const trace = await request<StructLoggerResult>("debug_traceCall", [runCall(50n), "latest", {disableMemory: true}]);
    expect(trace).toMatchObject({failed: true, reverted: true});
    expect(decodeErrorResult({abi: [], data: `0x${trace.returnValue}`}).args).toEqual(["inner: too big"]);
    const ok = await request<StructLoggerResult>("debug_traceCall", [runCall(5n), "latest", {disableMemory: true}]);
    expect(ok).toMatchObject({failed: false, returnValue: word(5n)});
    // The call charges what the mined transaction was charged.
    const receipt = await client.getTransactionReceipt({hash: succeeded});
    expect(ok.gas).toBe(Number(receipt.gasUsed));
  });

  it("with the callTracer: the same revert reasons as the mined transaction's trace", async () => {
    const frame = await request<Frame>("debug_traceCall", [runCall(50n), "latest", {tracer: "callTracer"}]);
    expectRevertReasons(frame);
    expect(frame.gas).toBe("0x100000");
  });

  it("with the prestateTracer: the accounts the call touches, as they were", async () => {
    const pre = await request<Record<string, {code?: Hex; storage?: Record<Hex, Hex>}>>("debug_traceCall", [
      runCall(50n),
      "latest",
      {tracer: "prestateTracer"},
    ]);
    expect(pre[inner.toLowerCase()]?.storage).toEqual({[`0x${word(0n)}`]: `0x${word(10n)}`});
    expect(pre[outer.toLowerCase()]?.code).toBe(await client.getCode({address: outer}));
  });

  it("stateOverrides that raise the limit turn the revert into a success", async () => {
    const stateOverrides = {[inner]: {stateDiff: {[`0x${word(0n)}`]: `0x${word(1000n)}`}}};
    const frame = await request<Frame>("debug_traceCall", [
      runCall(50n),
      "latest",
      {tracer: "callTracer", stateOverrides},
    ]);
    expect(frame).not.toHaveProperty("error");
    expect(frame.output).toBe(`0x${word(50n)}`);
    expect(frame.calls?.[2]).not.toHaveProperty("revertReason");
    const logger = await request<StructLoggerResult>("debug_traceCall", [
      runCall(50n),
      "latest",
      {disableMemory: true, stateOverrides},
    ]);
    expect(logger).toMatchObject({failed: false, returnValue: word(50n)});
  });

  it("a trace past the response cap is refused as debug_traceTransaction refuses it", async () => {
    const refusal = (e: unknown) => ({code: (e as {code?: number}).code, details: (e as {details?: string}).details});
    const byTransaction = await request("debug_traceTransaction", [spin]).then(
      () => expect.unreachable("debug_traceTransaction answered"),
      refusal,
    );
    const spinCall = {to: inner, data: encodeFunctionData({abi: INNER_ABI, functionName: "spin"}), gas: "0x5b8d80"};
    const byCall = await request("debug_traceCall", [spinCall, "latest"]).then(
      () => expect.unreachable("debug_traceCall answered"),
      refusal,
    );
    expect(byTransaction.code).toBe(-32011);
    expect(byCall).toEqual(byTransaction);
    // The callTracer keeps no per-step entry: the same call is traced, out of gas.
    const frame = await request<Frame>("debug_traceCall", [spinCall, "latest", {tracer: "callTracer"}]);
    expect(frame).toMatchObject({error: "out of gas", gasUsed: "0x5b8d80"});
    expect(await client.getBlockNumber()).toBeGreaterThan(0n);
  });
});
