// End-to-end: the controls fork users need (docs/forking.md §8), on `xchain start --fork.url` against a real
// xchain regtest upstream behind proxies on loopback: hardhat_metadata and anvil_nodeInfo report the fork;
// an upstream token holder with no key, impersonated, transfers on the fork; evm_snapshot/evm_revert keep
// the fetched values (no new upstream request); anvil_setRpcUrl moves to another upstream after checking
// it (another chain, or no fork block, refused); anvil_reset with `forking` re-forks on another upstream
// and, through viem's test client, at an earlier block (its balances, the local blocks gone, mining from
// the new anchor); a restart continues the re-forked chain and refuses the first fork block.
import {compileSolidity} from "@xchain/test-utils";
import {bytesToPrefixedHex, toQuantity} from "@xchain/utils";
import {createTestClient, http} from "viem";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {NO_INTERVAL_BLOCKS} from "../support/devClients.ts";
import {failure, forkFlags, send} from "../support/forkHelpers.ts";
import {rpc} from "../support/jsonRpc.ts";
import {UpstreamProxy} from "../support/upstreamProxy.ts";
import {regtestChain} from "../support/viemChain.ts";
import {type RunningNode, runXchain, startNode} from "../support/xchainProcess.ts";

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Token {
  mapping(address => uint256) public balanceOf;
  constructor(address holder) { balanceOf[holder] = 1000; }
  function transfer(address to, uint256 amount) external returns (bool) {
    require(balanceOf[msg.sender] >= amount, "balance");
    balanceOf[msg.sender] -= amount;
    balanceOf[to] += amount;
    return true;
  }
}`;
const TOKEN = compileSolidity(SOURCE).Token!;

/** An upstream account with tokens and RBTC whose key nobody has. */
const HOLDER = "0x00000000000000000000000000000000000f0c01";
const RECIPIENT = "0x00000000000000000000000000000000000f0c02";
const LOCAL = "0x00000000000000000000000000000000000f0c03";
/** Accounts first read after a control, whose reads show which upstream is asked. */
const UNSEEN = ["0x00000000000000000000000000000000000f0c04", "0x00000000000000000000000000000000000f0c05"];

const word = (value: string | bigint) => BigInt(value).toString(16).padStart(64, "0");
const encode = (signature: string, ...args: (string | bigint)[]) =>
  bytesToPrefixedHex(TOKEN.selectors[signature]!) + args.map(word).join("");

let upstream: RunningNode;
let forkNode: RunningNode;
const proxies: UpstreamProxy[] = [];
let accounts: string[];
let token: string;
/** The earlier fork block (the first transfer to RECIPIENT) and the fork block the node starts at. */
let E: {number: number; hash: string};
let F: {number: number; hash: string};

async function proxy(tamper?: UpstreamProxy["tamper"]): Promise<[UpstreamProxy, string]> {
  const started = new UpstreamProxy(upstream.httpUrl);
  started.tamper = tamper;
  proxies.push(started);
  return [started, await started.start()];
}

async function head(url: string): Promise<{number: number; hash: string}> {
  const block = await rpc<{number: string; hash: string}>(url, "eth_getBlockByNumber", ["latest", false]);
  return {number: Number(block.number), hash: block.hash};
}

const onFork = (method: string, ...params: unknown[]) => rpc<string>(forkNode.httpUrl, method, [...params, "latest"]);
const atUpstream = (block: number, method: string, ...params: unknown[]) =>
  rpc<string>(upstream.httpUrl, method, [...params, toQuantity(block)]);
const tokenBalance = (url: string, owner: string, block: unknown = "latest") =>
  rpc<string>(url, "eth_call", [{to: token, data: encode("balanceOf(address)", owner)}, block]).then(BigInt);

/** What anvil_nodeInfo and hardhat_metadata report of the fork. */
async function reported(): Promise<{forkUrl: string; forkedNetwork: Record<string, unknown>}> {
  const info = await rpc<{forkConfig: {forkUrl: string}}>(forkNode.httpUrl, "anvil_nodeInfo");
  const metadata = await rpc<{forkedNetwork: Record<string, unknown>}>(forkNode.httpUrl, "hardhat_metadata");
  return {forkUrl: info.forkConfig.forkUrl, forkedNetwork: metadata.forkedNetwork};
}

let mainProxy: UpstreamProxy;
let mainUrl: string;

beforeAll(async () => {
  upstream = await startNode(NO_INTERVAL_BLOCKS);
  const url = upstream.httpUrl;
  accounts = await rpc<string[]>(url, "eth_accounts");
  const constructorArgs = word(HOLDER);
  const deployed = await send(url, {
    from: accounts[0],
    data: bytesToPrefixedHex(TOKEN.bytecode) + constructorArgs,
    gas: "0x100000",
  });
  token = deployed.contractAddress as string;
  await send(url, {from: accounts[1], to: HOLDER, value: toQuantity(10n ** 15n)});
  await send(url, {from: accounts[1], to: RECIPIENT, value: "0x3e8"});
  E = await head(url);
  await send(url, {from: accounts[1], to: RECIPIENT, value: "0x2"});
  for (let i = 0; i < 3; i++) await rpc(url, "evm_mine", []);
  F = await head(url);
  [mainProxy, mainUrl] = await proxy();
  // Credentials in the URL: sent as basic auth, never reported.
  const withCredentials = mainUrl.replace("http://", "http://user:secret@");
  forkNode = await startNode(forkFlags(withCredentials, "--fork.block", String(F.number)));
}, 120_000);

afterAll(async () => {
  await forkNode?.stop();
  for (const p of proxies) await p.stop();
  await upstream?.stop();
});

describe("fork controls", () => {
  it("hardhat_metadata and anvil_nodeInfo report the fork, the URL's credentials redacted", async () => {
    const {forkUrl, forkedNetwork} = await reported();
    expect(forkedNetwork).toEqual({chainId: 33, forkBlockNumber: F.number, forkBlockHash: F.hash});
    expect(forkUrl).toContain(new URL(mainUrl).host);
    expect(forkUrl).not.toContain("secret");
    const info = await rpc<{forkConfig: Record<string, unknown>}>(forkNode.httpUrl, "anvil_nodeInfo");
    expect(info.forkConfig).toMatchObject({forkBlockNumber: F.number, forkRetryBackoff: 250});
  });

  it("impersonates an upstream token holder with no key: its transfer is mined on the fork", async () => {
    const url = forkNode.httpUrl;
    await rpc(url, "anvil_impersonateAccount", [HOLDER]);
    const receipt = await send(url, {from: HOLDER, to: token, data: encode("transfer(address,uint256)", LOCAL, 10n)});
    expect(Number(receipt.blockNumber)).toBe(F.number + 1);
    expect(await tokenBalance(url, LOCAL)).toBe(10n);
    expect(await tokenBalance(url, HOLDER)).toBe(990n);
    // The upstream only ever saw reads.
    expect(await tokenBalance(upstream.httpUrl, HOLDER)).toBe(1000n);
    await rpc(url, "anvil_stopImpersonatingAccount", [HOLDER]);
  });

  it("evm_snapshot and evm_revert keep the values fetched: nothing is asked again", async () => {
    const url = forkNode.httpUrl;
    const before = [
      await onFork("eth_getBalance", RECIPIENT),
      await onFork("eth_getCode", token),
      await tokenBalance(url, HOLDER),
    ];
    const snapshot = await rpc<string>(url, "evm_snapshot");
    await send(url, {from: accounts[2], to: RECIPIENT, value: "0x5"});
    expect(await onFork("eth_getBalance", RECIPIENT)).not.toBe(before[0]);
    expect(await rpc(url, "evm_revert", [snapshot])).toBe(true);
    mainProxy.reset();
    expect([
      await onFork("eth_getBalance", RECIPIENT),
      await onFork("eth_getCode", token),
      await tokenBalance(url, HOLDER),
    ]).toEqual(before);
    expect(mainProxy.requests).toBe(0);
  });

  it("anvil_setRpcUrl refuses another chain or an upstream without the fork block, then reads the new upstream", async () => {
    const url = forkNode.httpUrl;
    const [, otherChain] = await proxy((call, result) => (call.method === "eth_chainId" ? "0x1f" : result));
    const wrongChain = await failure(rpc(url, "anvil_setRpcUrl", [otherChain]));
    expect(wrongChain.code).toBe(-32000);
    expect(wrongChain.message).toContain(`is chain id 31, this fork's upstream chain id 33`);
    const [, noBlock] = await proxy((call, result) => (call.method === "eth_getBlockByHash" ? null : result));
    const missing = await failure(rpc(url, "anvil_setRpcUrl", [noBlock]));
    expect(missing.message).toContain(`has no block ${F.hash}`);
    expect((await reported()).forkUrl).toContain(new URL(mainUrl).host);

    const [second, secondUrl] = await proxy();
    expect(await rpc(url, "anvil_setRpcUrl", [secondUrl])).toBeNull();
    expect((await reported()).forkUrl).toContain(new URL(secondUrl).host);
    mainProxy.reset();
    second.reset();
    expect(await onFork("eth_getBalance", UNSEEN[0])).toBe(await atUpstream(F.number, "eth_getBalance", UNSEEN[0]));
    expect(second.requests).toBeGreaterThan(0);
    expect(mainProxy.requests).toBe(0);
    // The cache stayed: a value fetched through the first upstream asks nobody.
    second.reset();
    expect(await onFork("eth_getBalance", RECIPIENT)).toBe(await atUpstream(F.number, "eth_getBalance", RECIPIENT));
    expect(second.requests).toBe(0);
  });

  it("anvil_reset with a new jsonRpcUrl re-forks on that upstream; another chain's is refused", async () => {
    const url = forkNode.httpUrl;
    const [, otherChain] = await proxy((call, result) => (call.method === "eth_chainId" ? "0x1f" : result));
    const refused = await failure(rpc(url, "anvil_reset", [{forking: {jsonRpcUrl: otherChain}}]));
    expect(refused.message).toContain(`is chain id 31, this fork's upstream chain id 33`);
    // Nothing moved.
    expect((await head(url)).number).toBeGreaterThan(F.number);

    const [third, thirdUrl] = await proxy();
    await rpc(url, "anvil_reset", [{forking: {jsonRpcUrl: thirdUrl, blockNumber: F.number}}]);
    expect(await head(url)).toEqual(F);
    expect((await reported()).forkUrl).toContain(new URL(thirdUrl).host);
    // The local transfer is gone with the local blocks.
    expect(await tokenBalance(url, LOCAL)).toBe(0n);
    third.reset();
    expect(await onFork("eth_getBalance", UNSEEN[1])).toBe(await atUpstream(F.number, "eth_getBalance", UNSEEN[1]));
    expect(third.requests).toBeGreaterThan(0);
  });

  it("viem's testClient.reset({blockNumber}) re-forks at an earlier block; mining goes on from there", async () => {
    const url = forkNode.httpUrl;
    const test = createTestClient({mode: "anvil", chain: regtestChain(url), transport: http(url)});
    await test.reset({blockNumber: BigInt(E.number)});
    expect(await head(url)).toMatchObject({number: E.number});
    expect((await reported()).forkedNetwork).toEqual({chainId: 33, forkBlockNumber: E.number, forkBlockHash: E.hash});
    // The upstream's state at E: RECIPIENT before its second transfer.
    expect(await onFork("eth_getBalance", RECIPIENT)).toBe(await atUpstream(E.number, "eth_getBalance", RECIPIENT));
    expect(BigInt(await onFork("eth_getBalance", RECIPIENT))).toBe(1000n);
    expect(await tokenBalance(url, HOLDER)).toBe(1000n);
    // Block E+1 is the node's own now.
    const receipt = await send(url, {from: accounts[2], to: LOCAL, value: "0x7"});
    expect(Number(receipt.blockNumber)).toBe(E.number + 1);
    const mined = await rpc<{parentHash: string}>(url, "eth_getBlockByNumber", [toQuantity(E.number + 1), false]);
    expect(mined.parentHash).toBe(E.hash);
    expect(await onFork("eth_getBalance", LOCAL)).toBe("0x7");
  });

  it("a restart continues the re-forked chain; the first fork block is refused for that data directory", async () => {
    const {dataDir} = forkNode;
    const before = await head(forkNode.httpUrl);
    const forkUrl = (await reported()).forkUrl;
    await forkNode.stop();
    const ports = ["--datadir", dataDir, "--rpc.http.port", "0", "--rpc.ws.port", "0"];
    const first = await runXchain(["start", ...ports, ...forkFlags(mainUrl, "--fork.block", String(F.number))]);
    expect(first.code).not.toBe(0);
    expect(first.stdout + first.stderr).toContain(`holds a fork of block ${E.number} (${E.hash})`);
    expect(first.stdout + first.stderr).toContain("leave fork.block out to continue the fork it holds");
    forkNode = await startNode(forkFlags(forkUrl), dataDir);
    expect(await head(forkNode.httpUrl)).toEqual(before);
    expect((await reported()).forkedNetwork).toMatchObject({forkBlockNumber: E.number});
    expect(await onFork("eth_getBalance", LOCAL)).toBe("0x7");
  }, 60_000);
});
