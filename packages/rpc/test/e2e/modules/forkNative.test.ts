/**
 * Rootstock's native contracts on a fork, as RPC answers them (docs/forking.md §6). On a node forked from a
 * live upstream node: eth_call, eth_estimateGas and debug_traceCall reaching one it cannot run there (the Bridge;
 * directly, or from a contract) answer -32000 naming the contract and saying fork mode cannot execute it; the
 * stateless ones (HDWalletUtils), REMASC (its storage read through the fork's base) and precompiles still run;
 * the automining miner drops a transaction into one from the pool (it can never execute on the fork); xchain_getStorageBytesAt at a native address
 * answers the upstream's storage, except REMASC's, which the fork's own REMASC transactions write, and eth_bridgeState
 * reads its Bridge from it. With an rskj-like upstream (on a free loopback port, read by a real
 * `ForkSource`) it answers rskj's raw bytes, and rskj's refusal of rsk_getStorageBytesAt is reported naming the
 * method and the upstream. The upstream node, not a fork, answers as before.
 */
import {createHash} from "node:crypto";
import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {decodeRlp} from "@xchain/primitives";
import {defaultForkSourceOptions, ForkSource} from "@xchain/state";
import {FakeBlockEndpoint, rskjForkBlock, serveRskjState} from "@xchain/test-utils";
import {
  bigIntToBytes,
  bigIntToFixedBytes,
  bytesToBigInt,
  hexToBytes,
  toData,
  toQuantity,
  utf8ToBytes,
} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it, vi} from "vitest";
import {alice, bob} from "../../support/fixture.ts";
import {type ForkNode, startForkNode} from "../../support/forkNode.ts";
import {TestNode} from "../../support/node.ts";

const BRIDGE = "0x0000000000000000000000000000000001000006";
const REMASC = "0x0000000000000000000000000000000001000008";
const REWARD_BALANCE = toData(utf8ToBytes("rewardBalance"));
const HD_WALLET = "0x0000000000000000000000000000000001000009";
const BLOCK_HEADER = "0x0000000000000000000000000000000001000010";
const SHA256 = "0x0000000000000000000000000000000000000002";
const RELAY = "0x00000000000000000000000000000000000000aa";
// CALL(gas, address = calldata word 0, 0, 0, 0, 0, 0); return the success flag as a word.
const RELAY_CODE = "0x600060006000600060006000355af160005260206000f3";
const CHAIN_HEAD_KEY = toData(utf8ToBytes("blockStoreChainHead")); // rskj pads it to 32 bytes
const CHAIN_HEAD = toData(bigIntToFixedBytes(BigInt(CHAIN_HEAD_KEY), 32));
const STORED_BLOCK = `0x${"00".repeat(31)}02${"00000000"}${"ab".repeat(80)}`;
// The Bridge runs on its own storage, which a fork holds only upstream.
const UNAVAILABLE = (name: string, address: string) =>
  `the native contract ${name} (${address}) cannot be executed in fork mode: ` +
  "it runs on the upstream's native-contract storage, which xchain does not hold";

const word = (address: string) => `0x${address.slice(2).padStart(64, "0")}`;
const relayCall = (target: string) => [
  {from: toData(alice.address), to: RELAY, data: word(target)},
  "latest",
  {[RELAY]: {code: RELAY_CODE}},
];

const rskj = new FakeBlockEndpoint();
const storage = new Map([[CHAIN_HEAD, STORED_BLOCK]]);
const cacheDir = () => mkdtempSync(join(tmpdir(), "xchain-rpc-fork-native-"));
/** An xchain node: the upstream of `fork`, and the node that is not a fork. */
let plain: TestNode;
let fork: ForkNode;
let rskjSource: ForkSource;
/** A node reading native contracts' storage from the rskj-like upstream. */
let rskjReader: TestNode;

beforeAll(async () => {
  plain = await TestNode.start({miner: {}});
  // The Bridge's values are byte strings laid out in words (docs/protocol/native-contracts.md §10.4): 0x0102
  // sits in the slot itself, left-aligned, its length doubled in the last byte.
  await plain.result("anvil_setStorageAt", [BRIDGE, CHAIN_HEAD, `0x0102${"00".repeat(29)}04`]);
  await plain.result("evm_mine", []);
  fork = await startForkNode(plain, 1, cacheDir(), {miner: {enabled: true, autoMine: true, pendingDebounceMs: 0}});
  const block = rskjForkBlock();
  serveRskjState(rskj, {block, storage, balance: 1n});
  const url = await rskj.start();
  rskjSource = await ForkSource.open({...defaultForkSourceOptions, url, block: block.number, cacheDir: cacheDir()});
  rskjReader = await TestNode.start({deps: {forkNativeStorage: rskjSource}});
});

afterAll(async () => {
  await fork?.node.close();
  await fork?.source.close();
  await rskjReader?.close();
  await rskjSource?.close();
  await plain?.close();
  await rskj.stop();
});

describe("calls into native contracts on a fork", () => {
  it("eth_call and eth_estimateGas to the Bridge answer -32000 naming it", async () => {
    const call = {from: toData(alice.address), to: BRIDGE, value: "0x1"};
    expect(await fork.node.error("eth_call", [call, "latest"])).toEqual({
      code: -32000,
      message: UNAVAILABLE("Bridge", BRIDGE),
    });
    expect(await fork.node.error("eth_estimateGas", [call])).toEqual({
      code: -32000,
      message: UNAVAILABLE("Bridge", BRIDGE),
    });
    // The stateless ones run on a fork: one byte names no HDWalletUtils method, rskj's failure, "0x" in eth_call.
    expect(await fork.node.result("eth_call", [{to: HD_WALLET, data: "0x01"}, "latest"])).toBe("0x");
  });

  it("an internal call from a contract answers the same error, for eth_call, eth_estimateGas and debug_traceCall", async () => {
    const [tx, block, overrides] = relayCall(BRIDGE);
    const error = {code: -32000, message: UNAVAILABLE("Bridge", BRIDGE)};
    expect(await fork.node.error("eth_call", [tx, block, overrides])).toEqual(error);
    expect(await fork.node.error("eth_estimateGas", [tx, block, overrides])).toEqual(error);
    expect(await fork.node.error("debug_traceCall", [tx, block, {stateOverrides: overrides}])).toEqual(error);
  });

  it("BlockHeader answers a block above the fork block and refuses one at or below it", async () => {
    await fork.node.result("evm_mine", []);
    await fork.node.result("evm_mine", []);
    const head = Number(await fork.node.result("eth_blockNumber", []));
    // getBlockHash(depth): depth 0 is the parent of the block the call runs in.
    const getBlockHash = (depth: number) => ({
      to: BLOCK_HEADER,
      data: `0x2cce81aa${depth.toString(16).padStart(64, "0")}`,
    });
    const parent = (await fork.node.result("eth_getBlockByNumber", [toQuantity(head - 1), false])) as {hash: string};
    expect(await fork.node.result("eth_call", [getBlockHash(0), "latest"])).toBe(
      `0x${"20".padStart(64, "0")}${"20".padStart(64, "0")}${parent.hash.slice(2)}`,
    );
    // Depth head − 2 is block 1, the fork block: the upstream's, which this node does not hold.
    expect(await fork.node.error("eth_call", [getBlockHash(head - 2), "latest"])).toEqual({
      code: -32000,
      message:
        `the native contract BlockHeader (${BLOCK_HEADER}) cannot be executed in fork mode: ` +
        "block 1 is at or below the fork block 1, whose headers are the upstream's",
    });
  });

  it("a precompile xchain executes still answers, directly and from a contract", async () => {
    const input = word("0x07");
    const digest = `0x${createHash("sha256")
      .update(Buffer.from(input.slice(2), "hex"))
      .digest("hex")}`;
    expect(await fork.node.result("eth_call", [{to: SHA256, data: input}, "latest"])).toBe(digest);
    expect(await fork.node.result("eth_call", relayCall(SHA256))).toBe(word("0x01"));
  });

  it("outside fork mode a native contract is an inert account, as before", async () => {
    expect(await plain.result("eth_call", [{to: BRIDGE, data: "0x01"}, "latest"])).toBe("0x");
    expect(await plain.result("eth_call", relayCall(BRIDGE))).toBe(word("0x01"));
  });
});

describe("transactions into native contracts on a fork", () => {
  it("the automining miner drops one from the pool (it can never execute here) and mines the others", async () => {
    const node = fork.node;
    const [from, other] = [toData(alice.address), toData(bob.address)];
    const pegOut = await node.result("eth_sendTransaction", [{from, to: BRIDGE, value: "0x1"}]);
    const transfer = await node.result("eth_sendTransaction", [{from: other, to: RELAY, value: "0x1"}]);
    await vi.waitFor(async () => expect(await node.result("eth_getTransactionReceipt", [transfer])).not.toBeNull(), {
      timeout: 20_000,
    });
    await vi.waitFor(async () => expect(await node.result("eth_getTransactionByHash", [pegOut])).toBeNull(), {
      timeout: 20_000,
    });
    expect(await node.result("eth_getTransactionReceipt", [pegOut])).toBeNull();
    expect(await node.result("eth_getBalance", [RELAY, "latest"])).toBe("0x1");
  });
});

describe("xchain_getStorageBytesAt at a native contract on a fork", () => {
  it("answers an xchain upstream's storage, at any block from the fork block on", async () => {
    expect(await plain.result("xchain_getStorageBytesAt", [BRIDGE, CHAIN_HEAD_KEY, "0x1"])).toBe("0x0102");
    expect(await fork.node.result("xchain_getStorageBytesAt", [BRIDGE, CHAIN_HEAD_KEY, "latest"])).toBe("0x0102");
    expect(await fork.node.result("xchain_getStorageBytesAt", [BRIDGE, CHAIN_HEAD, "0x1"])).toBe("0x0102");
    expect(await fork.node.result("xchain_getStorageBytesAt", [BRIDGE, "0x1", "latest"])).toBe("0x0");
    // An unknown block is refused as for any address.
    expect((await fork.node.error("xchain_getStorageBytesAt", [BRIDGE, "0x1", "0x99"])).code).toBe(-32600);
  });

  it("answers REMASC's storage from the fork's own state, which its transaction writes there", async () => {
    const node = fork.node;
    const from = toData(alice.address);
    const paying = await node.result("eth_sendTransaction", [{from, to: RELAY, value: "0x1", gasPrice: "0x3"}]);
    await vi.waitFor(async () => expect(await node.result("eth_getTransactionReceipt", [paying])).not.toBeNull(), {
      timeout: 20_000,
    });
    const {blockNumber} = await node.result("eth_getTransactionReceipt", [paying]);
    // Ten blocks later REMASC puts that block's fees in its pool and, that block being past regtest's synthetic
    // span (5), pays a fifth of the pool out in the same REMASC transaction (docs/protocol/native-contracts.md
    // §11.1, §11.4). Earlier tests mined blocks with fees too, so the pool before is read, not assumed.
    const processing = Number(blockNumber) + 10;
    while (Number(await node.result("eth_blockNumber")) < processing) await node.result("evm_mine", []);
    const pool = async (n: number) =>
      BigInt(await node.result("eth_getStorageAt", [REMASC, REWARD_BALANCE, toQuantity(n)]));
    const joined = (await pool(processing - 1)) + 21_000n * 3n;
    expect(Number(blockNumber)).toBeGreaterThanOrEqual(5);
    expect(await pool(processing)).toBe(joined - joined / 5n);
    const local = await node.result("eth_getStorageAt", [REMASC, REWARD_BALANCE, toQuantity(processing)]);
    expect(await node.result("xchain_getStorageBytesAt", [REMASC, REWARD_BALANCE, toQuantity(processing)])).toBe(
      toData(bigIntToBytes(BigInt(local))),
    );
    // REMASC runs on a fork (its storage is an ordinary account's): getStateForDebugging answers that pool,
    // RLP [reward, burned, [], flag] as ABI bytes, and processMinersFees fails ("0x") as it does anywhere.
    const answer = hexToBytes(
      await node.result("eth_call", [{to: REMASC, data: "0x0d0cee93"}, toQuantity(processing)]),
    );
    const length = Number(bytesToBigInt(answer.subarray(32, 64)));
    const [reward] = decodeRlp(answer.subarray(64, 64 + length)) as Uint8Array[];
    expect(bytesToBigInt(reward as Uint8Array)).toBe(BigInt(local));
    expect(await node.result("eth_call", [{to: REMASC, data: "0x"}, "latest"])).toBe("0x");
  });

  it("answers an rskj upstream's raw bytes, the key given as the ASCII identifier's hex", async () => {
    expect(await rskjReader.result("xchain_getStorageBytesAt", [BRIDGE, CHAIN_HEAD_KEY, "latest"])).toBe(STORED_BLOCK);
    expect(await rskjReader.result("xchain_getStorageBytesAt", [BRIDGE, "0x1", "latest"])).toBe("0x0");
    // Another address reads the local state.
    expect(await rskjReader.result("xchain_getStorageBytesAt", [RELAY, CHAIN_HEAD, "latest"])).toBe("0x0");
  });

  it("eth_bridgeState answers from the upstream's Bridge storage at the fork block", async () => {
    expect(await rskjReader.result("eth_bridgeState", [])).toEqual({
      btcBlockchainBestChainHeight: 0,
      rskTxsWaitingForSignatures: [],
    });
    // The xchain upstream's chain head is two bytes, no stored block: a fault, -32603 as rskj answers.
    expect((await fork.node.error("eth_bridgeState", [])).code).toBe(-32603);
  });

  it("reports rskj's refusal naming the method and the upstream", async () => {
    rskj.methods.delete("rsk_getStorageBytesAt");
    const error = await rskjReader.error("xchain_getStorageBytesAt", [BRIDGE, "0x2", "latest"]);
    expect(error.code).toBe(-32000);
    const key = `0x${"0".repeat(63)}2`;
    expect(error.message).toMatch(/^upstream http:\/\/127\.0\.0\.1:\d+ does not serve rsk_getStorageBytesAt, /);
    expect(error.message).toContain(`reading storage bytes ${BRIDGE} key ${key} needs (rskj disables it by default`);
  });
});
