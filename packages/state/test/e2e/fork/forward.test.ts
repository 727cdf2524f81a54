/**
 * `ForkSource.forward` (docs/forking.md §5) against a real HTTP upstream answering fixed JSON: answers pass
 * through untouched, immutable ones are kept on disk (a warm run sends no request, an offline run answers
 * them), the rest are asked every time and refused offline; error answers are relayed; rskj's names are used.
 */
import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {afterEach, beforeEach, describe, expect, it} from "vitest";
import {ForkError, ForkErrorCode} from "../../../src/fork/errors.ts";
import {ForkSource} from "../../../src/fork/forkSource.ts";
import {defaultForkSourceOptions, type ForkSourceOptions} from "../../../src/options.ts";
import {type ScriptedAnswer, ScriptedUpstream, scriptedKey} from "./scriptedUpstream.ts";

const F = 5;
const hash = (byte: number) => `0x${byte.toString(16).padStart(2, "0").repeat(32)}`;
const ADDRESS = "0x00000000000000000000000000000000000f0a01";
const BRIDGE = "0x0000000000000000000000000000000001000006";

/** The fork block as an rskj node answers it (header fields only). */
const FORK_BLOCK = {
  number: "0x5",
  hash: hash(0xf5),
  parentHash: hash(0xf4),
  stateRoot: hash(0x55),
  timestamp: "0x64",
  gasLimit: "0x67c280",
  difficulty: "0x1",
  minimumGasPrice: "0x0",
  transactions: [],
};

/** Block 3 with what no xchain parser reads: REMASC's null signature, a typed transaction, a base fee. */
const BLOCK_3 = {
  number: "0x3",
  hash: hash(0xf3),
  baseFeePerGas: "0x7",
  transactions: [
    {hash: hash(0xa1), type: "0x2", maxFeePerGas: "0x9", maxPriorityFeePerGas: "0x1", blockNumber: "0x3"},
    {hash: hash(0xa2), from: "0x0000000000000000000000000000000000000000", v: null, r: null, s: null},
  ],
};

const TX_BELOW = {hash: hash(0xa1), blockNumber: "0x3", type: "0x2"};
const TX_ABOVE = {hash: hash(0xb1), blockNumber: "0x9"};
const REVERT = {code: 3, message: "execution reverted: no", data: "0x08c379a0"};

/** What the forwarding tests ask, with the upstream's answer to each (under the upstream's method name). */
const REQUESTS: [method: string, params: unknown[], upstreamMethod: string, answer: ScriptedAnswer][] = [
  ["eth_getBlockByNumber", ["0x3", true], "eth_getBlockByNumber", {result: BLOCK_3}],
  ["eth_getBlockByHash", [hash(0xf3), true], "eth_getBlockByHash", {result: BLOCK_3}],
  ["eth_getBalance", [ADDRESS, "0x2"], "eth_getBalance", {result: "0xde0b6b3a7640000"}],
  ["eth_getBalance", [ADDRESS, {blockHash: hash(0xf2)}], "eth_getBalance", {result: "0x2a"}],
  ["eth_getTransactionByHash", [hash(0xa1)], "eth_getTransactionByHash", {result: TX_BELOW}],
  ["eth_getLogs", [{fromBlock: "0x1", toBlock: "0x5"}], "eth_getLogs", {result: [{logIndex: "0x0"}]}],
  ["xchain_getStorageBytesAt", [BRIDGE, "0x6d696e696d756d", "0x4"], "rsk_getStorageBytesAt", {result: "0x0102"}],
  ["xchain_getRawBlockHeaderByNumber", ["0x3"], "rsk_getRawBlockHeaderByNumber", {result: "0xf90201"}],
];

/** Asked every time: above F, by a tag, a trace naming no block, an absent block. */
const NEVER_KEPT: [method: string, params: unknown[], answer: ScriptedAnswer][] = [
  ["eth_getTransactionByHash", [hash(0xb1)], {result: TX_ABOVE}],
  ["eth_getBalance", [ADDRESS, "latest"], {result: "0x1"}],
  ["eth_getBlockByNumber", ["0x7", false], {result: {number: "0x7"}}],
  ["debug_traceTransaction", [hash(0xa1)], {result: {structLogs: []}}],
  ["eth_getBlockByHash", [hash(0xee), false], {result: null}],
];

let upstream: ScriptedUpstream;
let url: string;
let cacheDir: string;
const sources: ForkSource[] = [];

beforeEach(async () => {
  upstream = new ScriptedUpstream()
    .on("eth_chainId", [], {result: "0x1f"})
    .on("web3_clientVersion", [], {result: "RskJ/6.4.0/Linux/Java1.8/ARROWHEAD-cafe"})
    .on("eth_getBlockByNumber", ["0x5", false], {result: FORK_BLOCK})
    .on("eth_call", [{to: ADDRESS, data: "0x"}, "0x2"], {error: REVERT});
  for (const [, params, method, answer] of REQUESTS) upstream.on(method, params, answer);
  for (const [method, params, answer] of NEVER_KEPT) upstream.on(method, params, answer);
  url = await upstream.start();
  cacheDir = mkdtempSync(join(tmpdir(), "xchain-fork-forward-"));
});

afterEach(async () => {
  for (const source of sources.splice(0)) await source.close();
  await upstream.stop();
});

async function open(opts: Partial<ForkSourceOptions> = {}): Promise<ForkSource> {
  const source = await ForkSource.open({...defaultForkSourceOptions, retries: 1, url, block: F, cacheDir, ...opts});
  sources.push(source);
  return source;
}

async function closeAll(): Promise<void> {
  for (const source of sources.splice(0)) await source.close();
}

describe("ForkSource.forward", () => {
  it("passes the upstream's JSON through, under rskj's names, and keeps the immutable answers", async () => {
    const cold = await open();
    expect(cold.forkNumber).toBe(F);
    upstream.calls.length = 0;
    for (const [method, params, , answer] of REQUESTS) {
      expect(await cold.forward(method, params), method).toStrictEqual((answer as {result: unknown}).result);
    }
    expect(upstream.calls).toEqual(REQUESTS.map(([, params, method]) => scriptedKey(method, params)));

    // A warm run on the same cache: the same answers, no request at all (not even to open).
    await closeAll();
    upstream.calls.length = 0;
    const warm = await open();
    for (const [method, params, , answer] of REQUESTS) {
      expect(await warm.forward(method, params), method).toStrictEqual((answer as {result: unknown}).result);
    }
    expect(upstream.calls).toEqual([]);
  });

  it("asks again what may change or names no block, and refuses it offline", async () => {
    const online = await open();
    upstream.calls.length = 0;
    for (const [method, params, answer] of NEVER_KEPT) {
      expect(await online.forward(method, params)).toStrictEqual((answer as {result: unknown}).result);
      expect(await online.forward(method, params)).toStrictEqual((answer as {result: unknown}).result);
    }
    expect(upstream.calls).toHaveLength(2 * NEVER_KEPT.length);
    const [kept] = REQUESTS;
    await online.forward(kept![0], kept![1]);

    await closeAll();
    upstream.calls.length = 0;
    const offline = await open({offline: true});
    expect(await offline.forward(kept![0], kept![1])).toStrictEqual(BLOCK_3);
    for (const [method, params] of NEVER_KEPT) {
      await expect(offline.forward(method, params)).rejects.toMatchObject({
        type: {code: ForkErrorCode.OFFLINE_MISS, chainId: "31", forkBlock: hash(0xf5)},
        message: expect.stringContaining(method),
      });
    }
    // Kept, but never asked online: refused offline too, naming the request.
    await expect(offline.forward("eth_getBalance", [ADDRESS, "0x1"])).rejects.toMatchObject({
      type: {code: ForkErrorCode.OFFLINE_MISS, key: `eth_getBalance ["${ADDRESS}","0x1"]`},
    });
    expect(upstream.calls).toEqual([]);
  });

  it("relays an error answer with its code, message and data, and does not keep it", async () => {
    const source = await open();
    upstream.calls.length = 0;
    for (let i = 0; i < 2; i++) {
      const error = await source.forward("eth_call", [{to: ADDRESS, data: "0x"}, "0x2"]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ForkError);
      expect((error as ForkError).type).toEqual({
        code: ForkErrorCode.FORWARDED_ERROR,
        url,
        method: "eth_call",
        rpcCode: 3,
        rpcMessage: REVERT.message,
        rpcData: REVERT.data,
      });
    }
    expect(upstream.calls).toHaveLength(2);
  });

  it("sends concurrent identical requests once", async () => {
    const source = await open();
    upstream.calls.length = 0;
    const [method, params] = NEVER_KEPT[0]!;
    const answers = await Promise.all([source.forward(method, params), source.forward(method, params)]);
    expect(answers).toEqual([TX_ABOVE, TX_ABOVE]);
    expect(upstream.calls).toHaveLength(1);
  });
});
