/**
 * Rootstock's native contracts on a fork, as RPC answers them (docs/forking.md §6): eth_call, eth_estimateGas
 * and debug_traceCall reaching one (directly, or from a contract) answer -32000 naming the contract and saying
 * fork mode cannot execute it; precompiles still run; xchain_getStorageBytesAt at a native address reads the
 * upstream's raw storage (an rskj-like upstream on a free loopback port, read by a real `ForkSource`), its
 * refusal reported naming the method and the upstream. A node not in fork mode answers as before.
 */
import {createHash} from "node:crypto";
import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {defaultForkSourceOptions, ForkSource} from "@xchain/state";
import {FakeBlockEndpoint, rskjForkBlock, serveRskjState} from "@xchain/test-utils";
import {bigIntToFixedBytes, toData, utf8ToBytes} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it, vi} from "vitest";
import {alice, bob} from "../../support/fixture.ts";
import {TestNode} from "../../support/node.ts";

const BRIDGE = "0x0000000000000000000000000000000001000006";
const HD_WALLET = "0x0000000000000000000000000000000001000009";
const SHA256 = "0x0000000000000000000000000000000000000002";
const RELAY = "0x00000000000000000000000000000000000000aa";
// CALL(gas, address = calldata word 0, 0, 0, 0, 0, 0); return the success flag as a word.
const RELAY_CODE = "0x600060006000600060006000355af160005260206000f3";
const CHAIN_HEAD_KEY = toData(utf8ToBytes("blockStoreChainHead")); // rskj pads it to 32 bytes
const CHAIN_HEAD = toData(bigIntToFixedBytes(BigInt(CHAIN_HEAD_KEY), 32));
const STORED_BLOCK = `0x${"00".repeat(31)}02${"00000000"}${"ab".repeat(80)}`;
const UNAVAILABLE = (name: string, address: string) =>
  `the native contract ${name} (${address}) cannot be executed in fork mode: ` +
  "xchain does not implement Rootstock's native contracts and cannot ask the upstream to run them";

const word = (address: string) => `0x${address.slice(2).padStart(64, "0")}`;
const relayCall = (target: string) => [
  {from: toData(alice.address), to: RELAY, data: word(target)},
  "latest",
  {[RELAY]: {code: RELAY_CODE}},
];

const upstream = new FakeBlockEndpoint();
const storage = new Map([[CHAIN_HEAD, STORED_BLOCK]]);
let source: ForkSource;
let forked: TestNode;
let plain: TestNode;

beforeAll(async () => {
  const url = await upstream.start();
  const block = rskjForkBlock();
  serveRskjState(upstream, {block, storage, balance: 1n});
  source = await ForkSource.open({
    ...defaultForkSourceOptions,
    url,
    block: block.number,
    cacheDir: mkdtempSync(join(tmpdir(), "xchain-rpc-fork-native-")),
    retries: 1,
  });
  forked = await TestNode.start({executor: {nativeContracts: "unavailable"}, deps: {forkNativeStorage: source}});
  plain = await TestNode.start();
});

afterAll(async () => {
  await forked?.close();
  await plain?.close();
  await source?.close();
  await upstream.stop();
});

describe("calls into native contracts on a fork", () => {
  it("eth_call and eth_estimateGas to the Bridge answer -32000 naming it", async () => {
    const call = {from: toData(alice.address), to: BRIDGE, value: "0x1"};
    expect(await forked.error("eth_call", [call, "latest"])).toEqual({
      code: -32000,
      message: UNAVAILABLE("Bridge", BRIDGE),
    });
    expect(await forked.error("eth_estimateGas", [call])).toEqual({
      code: -32000,
      message: UNAVAILABLE("Bridge", BRIDGE),
    });
    expect((await forked.error("eth_call", [{to: HD_WALLET, data: "0x01"}, "latest"])).message).toBe(
      UNAVAILABLE("HDWalletUtils", HD_WALLET),
    );
  });

  it("an internal call from a contract answers the same error, for eth_call, eth_estimateGas and debug_traceCall", async () => {
    const [tx, block, overrides] = relayCall(BRIDGE);
    const error = {code: -32000, message: UNAVAILABLE("Bridge", BRIDGE)};
    expect(await forked.error("eth_call", [tx, block, overrides])).toEqual(error);
    expect(await forked.error("eth_estimateGas", [tx, block, overrides])).toEqual(error);
    expect(await forked.error("debug_traceCall", [tx, block, {stateOverrides: overrides}])).toEqual(error);
  });

  it("a precompile xchain executes still answers, directly and from a contract", async () => {
    const input = word("0x07");
    const digest = `0x${createHash("sha256")
      .update(Buffer.from(input.slice(2), "hex"))
      .digest("hex")}`;
    expect(await forked.result("eth_call", [{to: SHA256, data: input}, "latest"])).toBe(digest);
    expect(await forked.result("eth_call", relayCall(SHA256))).toBe(word("0x01"));
  });

  it("outside fork mode a native contract is an inert account, as before", async () => {
    expect(await plain.result("eth_call", [{to: BRIDGE, data: "0x01"}, "latest"])).toBe("0x");
    expect(await plain.result("eth_call", relayCall(BRIDGE))).toBe(word("0x01"));
  });
});

describe("transactions into native contracts on a fork", () => {
  it("the automining miner skips one (it stays pending, unmined) and mines the others", async () => {
    const mining = await TestNode.start({
      executor: {nativeContracts: "unavailable"},
      miner: {enabled: true, autoMine: true, pendingDebounceMs: 0},
    });
    try {
      const [from, other] = [toData(alice.address), toData(bob.address)];
      const pegOut = await mining.result("eth_sendTransaction", [{from, to: BRIDGE, value: "0x1"}]);
      const transfer = await mining.result("eth_sendTransaction", [{from: other, to: RELAY, value: "0x1"}]);
      await vi.waitFor(
        async () => expect(await mining.result("eth_getTransactionReceipt", [transfer])).not.toBeNull(),
        {
          timeout: 20_000,
        },
      );
      expect(await mining.result("eth_getTransactionReceipt", [pegOut])).toBeNull();
      expect((await mining.result("eth_getTransactionByHash", [pegOut])).blockNumber).toBeNull();
      expect(await mining.result("eth_getBalance", [RELAY, "latest"])).toBe("0x1");
    } finally {
      await mining.close();
    }
  });
});

describe("xchain_getStorageBytesAt at a native contract on a fork", () => {
  it("answers the upstream's raw bytes, the key given as the ASCII identifier's hex", async () => {
    expect(await forked.result("xchain_getStorageBytesAt", [BRIDGE, CHAIN_HEAD_KEY, "latest"])).toBe(STORED_BLOCK);
    expect(await forked.result("xchain_getStorageBytesAt", [BRIDGE, CHAIN_HEAD, "0x0"])).toBe(STORED_BLOCK);
    expect(await forked.result("xchain_getStorageBytesAt", [BRIDGE, "0x1", "latest"])).toBe("0x0");
    // An unknown block is refused as for any address; another address reads the local state.
    expect((await forked.error("xchain_getStorageBytesAt", [BRIDGE, "0x1", "0x99"])).code).toBe(-32600);
    expect(await forked.result("xchain_getStorageBytesAt", [RELAY, CHAIN_HEAD, "latest"])).toBe("0x0");
    expect(await plain.result("xchain_getStorageBytesAt", [BRIDGE, CHAIN_HEAD, "latest"])).toBe("0x0");
  });

  it("reports the upstream's refusal naming the method and the upstream", async () => {
    upstream.methods.delete("rsk_getStorageBytesAt");
    const error = await forked.error("xchain_getStorageBytesAt", [BRIDGE, "0x2", "latest"]);
    expect(error.code).toBe(-32000);
    const key = `0x${"0".repeat(63)}2`;
    expect(error.message).toMatch(/^upstream http:\/\/127\.0\.0\.1:\d+ does not serve rsk_getStorageBytesAt, /);
    expect(error.message).toContain(`reading storage bytes ${BRIDGE} key ${key} needs (rskj disables it by default`);
  });
});
