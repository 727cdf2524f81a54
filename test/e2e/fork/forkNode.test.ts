// End-to-end: `xchain start --fork.url` (docs/forking.md §4) against a real xchain regtest upstream behind a
// proxy on loopback. The upstream deploys a contract and mines past the fork block F; the fork node answers
// the upstream's accounts, code and storage at F, mines F+1 on the anchor (a transfer and a contract call),
// reads BLOCKHASH(F) and BLOCKHASH(F-3) as the upstream's hashes, and never writes to the upstream. With the
// upstream killed, reads already fetched still answer and a new one fails naming the upstream and the key,
// the node staying up; a restart with --fork.offline answers from the cache; with --fork.verify on, a
// tampered upstream answer is refused.
import {compileSolidity} from "@xchain/test-utils";
import {bytesToPrefixedHex, keccak256, toQuantity} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {NO_INTERVAL_BLOCKS} from "../support/devClients.ts";
import {failure, forkFlags, send} from "../support/forkHelpers.ts";
import {rpc} from "../support/jsonRpc.ts";
import {UpstreamProxy} from "../support/upstreamProxy.ts";
import {type RunningNode, refusedStart, runXchain, startNode, tempDataDir} from "../support/xchainProcess.ts";

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Store {
  uint256 public a = 42;
  mapping(uint256 => uint256) public m;
  constructor() { m[7] = 99; }
  function set(uint256 k, uint256 v) external { m[k] = v; }
  function hashOf(uint256 n) external view returns (bytes32) { return blockhash(n); }
  function record(uint256 n) external { m[n] = uint256(blockhash(n)); }
}`;
const STORE = compileSolidity(SOURCE).Store!;

const RECIPIENT = "0x00000000000000000000000000000000000f0b01";
const LOCAL_RECIPIENT = "0x00000000000000000000000000000000000f0b02";
/** An account nobody reads before the upstream is killed. */
const UNSEEN = "0x00000000000000000000000000000000000f0b03";
/** The Bridge (a native contract, docs/forking.md §6) and a word the upstream stores in it. */
const BRIDGE = "0x0000000000000000000000000000000001000006";
// The Bridge's value 0x0102 as xchain lays a byte string in a word: left-aligned, twice its length last
// (docs/protocol/native-contracts.md §10.4).
const BRIDGE_WORD = `0x0102${"00".repeat(29)}04`;
/** The regtest cow accounts' balance, which a fork with the dev wallet funds them with. */
const COW_BALANCE = toQuantity(10n ** 30n);

const word = (n: number | bigint) => BigInt(n).toString(16).padStart(64, "0");
const call = (signature: string, ...args: (number | bigint)[]) =>
  bytesToPrefixedHex(STORE.selectors[signature]!) + args.map(word).join("");
/** The storage slot of `m[k]`: keccak256(k ‖ 1). */
const mappingSlot = (k: number) => bytesToPrefixedHex(keccak256(Buffer.from(word(k) + word(1), "hex")));

let upstream: RunningNode;
let proxy: UpstreamProxy;
let proxyUrl: string;
let forkNode: RunningNode | undefined;
const others: RunningNode[] = [];
const proxies: UpstreamProxy[] = [];
let accounts: string[];
let contract: string;
let deployTx: string;
let F: number;
let H: string;
let upstreamHead: number;

beforeAll(async () => {
  upstream = await startNode(NO_INTERVAL_BLOCKS);
  const url = upstream.httpUrl;
  accounts = await rpc<string[]>(url, "eth_accounts");
  const deployed = await send(url, {from: accounts[0], data: bytesToPrefixedHex(STORE.bytecode), gas: "0x100000"});
  contract = deployed.contractAddress as string;
  deployTx = deployed.transactionHash as string;
  await send(url, {from: accounts[1], to: RECIPIENT, value: "0x2540be400"});
  await rpc(url, "anvil_setStorageAt", [BRIDGE, "0x1", BRIDGE_WORD]);
  for (let i = 0; i < 4; i++) await rpc(url, "evm_mine", []);
  const block = await rpc<{number: string; hash: string}>(url, "eth_getBlockByNumber", ["latest", false]);
  F = Number(block.number);
  H = block.hash;
  // After the fork block: other values, which the fork must not see.
  await send(url, {from: accounts[0], to: contract, data: call("set(uint256,uint256)", 7, 1)});
  await send(url, {from: accounts[1], to: RECIPIENT, value: "0x1"});
  upstreamHead = Number(await rpc<string>(url, "eth_blockNumber"));
  proxy = new UpstreamProxy(url);
  proxyUrl = await proxy.start();
  forkNode = await startNode(forkFlags(proxyUrl, "--fork.block", String(F)));
}, 120_000);

afterAll(async () => {
  await forkNode?.stop();
  for (const node of others) await node.stop();
  await proxy?.stop();
  for (const p of proxies) await p.stop();
  await upstream?.stop();
});

/** The upstream's answer to `method` at the fork block (block number F as the last parameter). */
const atFork = (method: string, ...params: unknown[]) =>
  rpc<string>(upstream.httpUrl, method, [...params, toQuantity(F)]);
/** The fork node's answer at its head. */
const onFork = (method: string, ...params: unknown[]) => rpc<string>(forkNode!.httpUrl, method, [...params, "latest"]);

describe("xchain start --fork.url", () => {
  it("starts at the fork block, announcing the upstream, with the upstream's chain id and p2p off", async () => {
    const url = forkNode!.httpUrl;
    expect(Number(await rpc<string>(url, "eth_blockNumber"))).toBe(F);
    expect(await rpc(url, "eth_chainId")).toBe(await rpc(upstream.httpUrl, "eth_chainId"));
    const banner = forkNode!.logs.find((line) => line.forkBlock !== undefined);
    expect(banner).toMatchObject({forkBlock: F, forkHash: H, forkUrl: proxyUrl});
    expect(forkNode!.logs.some((line) => line.msg === "p2p off")).toBe(true);
  });

  it("answers the upstream's balances, nonces, code and storage at the fork block", async () => {
    for (const address of [contract, RECIPIENT, UNSEEN.replace("03", "04")]) {
      expect(await onFork("eth_getBalance", address), address).toBe(await atFork("eth_getBalance", address));
      expect(await onFork("eth_getTransactionCount", address)).toBe(await atFork("eth_getTransactionCount", address));
      expect(await onFork("eth_getCode", address)).toBe(await atFork("eth_getCode", address));
    }
    for (const slot of ["0x0", mappingSlot(7), mappingSlot(8)]) {
      expect(await onFork("eth_getStorageAt", contract, slot), slot).toBe(
        await atFork("eth_getStorageAt", contract, slot),
      );
    }
    // m[7] is 99 at the fork block (the upstream set it to 1 after).
    expect(BigInt(await onFork("eth_getStorageAt", contract, mappingSlot(7)))).toBe(99n);
    // History at and below the fork block is the upstream's (docs/forking.md §5).
    for (const n of [F - 3, F]) {
      const block = (url: string) => rpc<{hash: string}>(url, "eth_getBlockByNumber", [toQuantity(n), false]);
      expect((await block(forkNode!.httpUrl)).hash).toBe((await block(upstream.httpUrl)).hash);
    }
    const receipt = (url: string) => rpc(url, "eth_getTransactionReceipt", [deployTx]);
    expect(await receipt(forkNode!.httpUrl)).toEqual(await receipt(upstream.httpUrl));
    // The dev accounts keep the upstream's nonces and are funded as regtest's genesis funds them.
    for (const account of accounts.slice(0, 2)) {
      expect(await onFork("eth_getTransactionCount", account)).toBe(await atFork("eth_getTransactionCount", account));
      expect(await onFork("eth_getBalance", account)).toBe(COW_BALANCE);
    }
  });

  it("mines a transfer and a contract call in block F+1 on the anchor; nothing reaches the upstream", async () => {
    const url = forkNode!.httpUrl;
    const transfer = await send(url, {from: accounts[2], to: LOCAL_RECIPIENT, value: "0x3e8"});
    const set = await send(url, {from: accounts[0], to: contract, data: call("set(uint256,uint256)", 5, 123)});
    expect(Number(transfer.blockNumber)).toBe(F + 1);
    expect(Number(set.blockNumber)).toBeGreaterThanOrEqual(F + 1);
    const first = await rpc<{parentHash: string; number: string}>(url, "eth_getBlockByNumber", [
      toQuantity(F + 1),
      false,
    ]);
    expect(first.parentHash).toBe(H);
    expect(BigInt(await onFork("eth_getStorageAt", contract, mappingSlot(5)))).toBe(123n);
    expect(await onFork("eth_getBalance", LOCAL_RECIPIENT)).toBe("0x3e8");
    // The upstream saw reads only.
    const up = upstream.httpUrl;
    expect(BigInt(await rpc<string>(up, "eth_getStorageAt", [contract, mappingSlot(5), "latest"]))).toBe(0n);
    expect(BigInt(await rpc<string>(up, "eth_getBalance", [LOCAL_RECIPIENT, "latest"]))).toBe(0n);
    expect(Number(await rpc<string>(up, "eth_blockNumber"))).toBe(upstreamHead);
    const methods = new Set(proxy.calls.map((c) => c.method));
    expect(
      [...methods].filter((m) => !m.startsWith("eth_get") && m !== "eth_chainId" && m !== "web3_clientVersion"),
    ).toEqual([]);
  });

  it("reads BLOCKHASH at and below the fork block as the upstream's hashes, in calls and mined blocks", async () => {
    const url = forkNode!.httpUrl;
    const below = await rpc<{hash: string}>(upstream.httpUrl, "eth_getBlockByNumber", [toQuantity(F - 3), false]);
    expect(await onFork("eth_call", {to: contract, data: call("hashOf(uint256)", F)})).toBe(H);
    expect(await onFork("eth_call", {to: contract, data: call("hashOf(uint256)", F - 3)})).toBe(below.hash);
    // In a mined block: assembly and import read the same hashes.
    await send(url, {from: accounts[0], to: contract, data: call("record(uint256)", F - 3)});
    await send(url, {from: accounts[0], to: contract, data: call("record(uint256)", F)});
    expect(await onFork("eth_getStorageAt", contract, mappingSlot(F - 3))).toBe(below.hash);
    expect(await onFork("eth_getStorageAt", contract, mappingSlot(F))).toBe(H);
  });

  it("refuses a call into a native contract precisely, and reads a native contract's storage from the upstream", async () => {
    const error = await failure(onFork("eth_call", {to: BRIDGE, data: "0x01"}));
    expect([error.code, error.message]).toEqual([
      -32000,
      "the native contract Bridge (0x0000000000000000000000000000000001000006) cannot be executed in fork mode: " +
        "it runs on the upstream's native-contract storage, which xchain does not hold",
    ]);
    expect(await onFork("eth_getStorageAt", BRIDGE, "0x1")).toBe(BRIDGE_WORD);
    expect(await onFork("xchain_getStorageBytesAt", BRIDGE, "0x1")).toBe(
      await atFork("xchain_getStorageBytesAt", BRIDGE, "0x1"),
    );
    expect(await onFork("xchain_getStorageBytesAt", BRIDGE, "0x1")).toBe("0x0102");
  });

  it("keeps answering what it fetched when the upstream is gone; a new read fails naming the upstream and the key", async () => {
    const url = forkNode!.httpUrl;
    const recipient = await onFork("eth_getBalance", RECIPIENT);
    await proxy.stop();
    expect(await onFork("eth_getBalance", RECIPIENT)).toBe(recipient);
    const error = await failure(onFork("eth_getBalance", UNSEEN));
    expect(error.code).toBe(-32000);
    expect(error.message).toContain(proxyUrl);
    expect(error.message).toContain(`account ${UNSEEN}`);
    // The node is up and still mines on what it holds.
    await send(url, {from: accounts[2], to: LOCAL_RECIPIENT, value: "0x1"});
    expect(await onFork("eth_getBalance", LOCAL_RECIPIENT)).toBe("0x3e9");
  }, 60_000);

  it("restarts with --fork.offline from its database and the cache, without the upstream", async () => {
    const head = await rpc<string>(forkNode!.httpUrl, "eth_blockNumber");
    const recipient = await onFork("eth_getBalance", RECIPIENT);
    const dataDir = forkNode!.dataDir;
    await forkNode!.stop();
    // The data directory holds this fork: refused without fork mode, and for another fork block.
    const ports = ["--datadir", dataDir, "--rpc.http.port", "0", "--rpc.ws.port", "0"];
    const plain = await runXchain(["start", ...ports]);
    expect(plain.code).not.toBe(0);
    expect(plain.stdout + plain.stderr).toContain(`holds a fork of block ${F} (${H})`);
    expect(plain.stdout + plain.stderr).toContain("start it with --fork.url");
    const other = await runXchain(["start", ...ports, ...forkFlags(upstream.httpUrl, "--fork.block", String(F - 1))]);
    expect(other.code).not.toBe(0);
    expect(other.stdout + other.stderr).toMatch(
      new RegExp(`holds a fork of block ${F} \\(${H}\\) of chain id 33, not a fork of block ${F - 1} `),
    );
    forkNode = await startNode(forkFlags(proxyUrl, "--fork.offline"), dataDir);
    expect(await rpc(forkNode.httpUrl, "eth_blockNumber")).toBe(head);
    expect(await onFork("eth_getBalance", RECIPIENT)).toBe(recipient);
    expect(BigInt(await onFork("eth_getStorageAt", contract, mappingSlot(5)))).toBe(123n);
    expect(await onFork("eth_getCode", contract)).toBe(await atFork("eth_getCode", contract));
    const error = await failure(onFork("eth_getBalance", UNSEEN));
    expect(error.message).toContain(`account ${UNSEEN}`);
    expect(error.message).toContain("fork.offline");
  }, 60_000);

  it("refuses an upstream chain id no transaction can carry unless fork.chainId gives the fork one", async () => {
    const foreign = new UpstreamProxy(upstream.httpUrl);
    proxies.push(foreign);
    // anvil's chain id: a Rootstock transaction's one-byte v carries 1 to 109.
    foreign.tamper = (proxied, result) => (proxied.method === "eth_chainId" ? "0x7a69" : result);
    const url = await foreign.start();
    const refused = await refusedStart(forkFlags(url, "--fork.block", String(F)));
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain(
      "the upstream's chain id 31337 does not fit a Rootstock transaction's one-byte v (chain ids 1 to 109): give the fork one with --fork.chainId",
    );
    const renamed = await startNode(forkFlags(url, "--fork.block", String(F), "--fork.chainId", "99"), tempDataDir());
    others.push(renamed);
    expect(await rpc(renamed.httpUrl, "eth_chainId")).toBe("0x63");
    const receipt = await send(renamed.httpUrl, {from: accounts[2], to: LOCAL_RECIPIENT, value: "0x7"});
    expect(Number(receipt.blockNumber)).toBe(F + 1);
  }, 60_000);

  it("refuses a tampered upstream answer with --fork.verify on", async () => {
    const tampering = new UpstreamProxy(upstream.httpUrl);
    proxies.push(tampering);
    tampering.tamper = (proxied, result) =>
      proxied.method === "eth_getProof" && String(proxied.params[0]).toLowerCase() === RECIPIENT
        ? {...(result as object), balance: "0x1"}
        : result;
    const url = await tampering.start();
    const verifying = await startNode(forkFlags(url, "--fork.block", H, "--fork.verify", "on"), tempDataDir());
    others.push(verifying);
    const error = await failure(rpc(verifying.httpUrl, "eth_getBalance", [RECIPIENT, "latest"]));
    expect(error.code).toBe(-32000);
    expect(error.message).toContain(
      `upstream ${url}: account ${RECIPIENT} does not verify against the fork block's state root`,
    );
    // The untampered answers verify.
    expect(await rpc(verifying.httpUrl, "eth_getBalance", [contract, "latest"])).toBe(
      await atFork("eth_getBalance", contract),
    );
  }, 60_000);
});
