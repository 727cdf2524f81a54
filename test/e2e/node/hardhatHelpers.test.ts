// End-to-end: @nomicfoundation/hardhat-network-helpers 1.x through a real Hardhat 2 runtime (the HRE,
// loaded in this test's process from a config written to a temp dir: an `http` network at the
// node's URL) against a regtest node started as a dev loop runs it (test/e2e/support/devClients.ts).
// Each helper's effect is read back from the chain with viem, apart from Hardhat. With
// XCHAIN_CLIENT_TEST_TARGET=anvil the same assertions run against anvil.
import {mkdtempSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import type * as Helpers from "@nomicfoundation/hardhat-network-helpers";
import type {HardhatRuntimeEnvironment} from "hardhat/types/index.js";
import {type Address, type Hex, numberToHex, type PublicClient, padHex} from "viem";
import {generatePrivateKey, privateKeyToAccount} from "viem/accounts";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {chainReader, type DevTarget, startDevTarget} from "../support/devClients.ts";

// Runtime code that returns storage slot 0 as one word: SLOAD(0), MSTORE(0), RETURN(0, 32).
const RETURN_SLOT0 = "0x60005460005260206000f3";

let target: DevTarget;
let hre: HardhatRuntimeEnvironment;
let helpers: typeof Helpers;
let reader: PublicClient;
let funded: Address;

beforeAll(async () => {
  target = await startDevTarget();
  const project = mkdtempSync(join(tmpdir(), "xchain-hardhat-"));
  const config = join(project, "hardhat.config.cjs");
  writeFileSync(config, `module.exports = ${JSON.stringify({networks: {dev: {url: target.url, timeout: 60_000}}})};\n`);
  // Hardhat reads its arguments from the environment when its runtime is first loaded (as `hardhat run` does).
  process.env.HARDHAT_CONFIG = config;
  process.env.HARDHAT_NETWORK = "dev";
  hre = (await import("hardhat")).default;
  helpers = await import("@nomicfoundation/hardhat-network-helpers");
  reader = chainReader(target.url);
  [funded] = (await hre.network.provider.send("eth_accounts")) as [Address];
});

afterAll(async () => {
  await target?.stop();
});

const randomAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;
const send = <T>(method: string, params: unknown[] = []) => hre.network.provider.send(method, params) as Promise<T>;

/** Sends a transfer through Hardhat's provider (the node signs, or impersonates) and waits for its receipt. */
async function transfer(from: Address, to: Address, value: bigint) {
  const hash = await send<Hex>("eth_sendTransaction", [{from, to, value: numberToHex(value)}]);
  return reader.waitForTransactionReceipt({hash});
}

describe(`hardhat-network-helpers 1.x in Hardhat 2 against ${process.env.XCHAIN_CLIENT_TEST_TARGET ?? "xchain"}`, () => {
  it("accepts the node (web3_clientVersion) and runs on its http network", async () => {
    expect(hre.network.name).toBe("dev");
    expect(await helpers.time.latestBlock()).toBe(Number(await reader.getBlockNumber()));
  });

  it("mine: mines blocks, spaced by the interval asked", async () => {
    const start = await reader.getBlockNumber();
    await helpers.mine(5);
    expect(await reader.getBlockNumber()).toBe(start + 5n);

    await helpers.mine(3, {interval: 3600});
    const [first, second, third] = await Promise.all(
      [start + 6n, start + 7n, start + 8n].map((blockNumber) => reader.getBlock({blockNumber})),
    );
    expect(second!.timestamp - first!.timestamp).toBe(3600n);
    expect(third!.timestamp - second!.timestamp).toBe(3600n);
  });

  it("mineUpTo: mines up to the block number asked", async () => {
    const goal = Number(await reader.getBlockNumber()) + 10;
    await helpers.mineUpTo(goal);
    expect(await reader.getBlockNumber()).toBe(BigInt(goal));
  });

  it("time.latest, time.increase, time.increaseTo and setNextBlockTimestamp: the next block's timestamp", async () => {
    const head = await reader.getBlock();
    expect(await helpers.time.latest()).toBe(Number(head.timestamp));

    const increased = await helpers.time.increase(3600);
    const afterIncrease = await reader.getBlock();
    expect(afterIncrease.number).toBe(head.number + 1n);
    expect(afterIncrease.timestamp).toBe(head.timestamp + 3600n);
    expect(increased).toBe(Number(afterIncrease.timestamp));

    const goal = increased + 86_400;
    await helpers.time.increaseTo(goal);
    expect((await reader.getBlock()).timestamp).toBe(BigInt(goal));

    await helpers.time.setNextBlockTimestamp(goal + 10);
    await helpers.mine();
    expect((await reader.getBlock()).timestamp).toBe(BigInt(goal + 10));
  });

  it("setBalance: the balance at once, latest and pending", async () => {
    const address = randomAddress();
    await helpers.setBalance(address, 10n ** 21n);
    expect(await reader.getBalance({address})).toBe(10n ** 21n);
    expect(await reader.getBalance({address, blockTag: "pending"})).toBe(10n ** 21n);
    await helpers.setBalance(address, 5n);
    expect(await reader.getBalance({address})).toBe(5n);
  });

  it("setCode and setStorageAt: the code and the slot, as a call reads them", async () => {
    const address = randomAddress();
    await helpers.setCode(address, RETURN_SLOT0);
    expect(await reader.getCode({address})).toBe(RETURN_SLOT0);
    expect((await reader.call({to: address})).data).toBe(padHex("0x0", {size: 32}));

    await helpers.setStorageAt(address, 0, 1234);
    await helpers.setStorageAt(address, "0x1", "0xbeef");
    expect(await reader.getStorageAt({address, slot: "0x0"})).toBe(numberToHex(1234, {size: 32}));
    expect(await reader.getStorageAt({address, slot: "0x1"})).toBe(padHex("0xbeef", {size: 32}));
    expect(await helpers.getStorageAt(address, 1)).toBe(padHex("0xbeef", {size: 32}));
    expect((await reader.call({to: address})).data).toBe(numberToHex(1234, {size: 32}));
  });

  it("setNonce: the nonce, and the next transaction sent from the account uses it", async () => {
    const address = randomAddress();
    await helpers.setNonce(address, 42);
    expect(await reader.getTransactionCount({address})).toBe(42);
    expect(await reader.getTransactionCount({address, blockTag: "pending"})).toBe(42);

    const sender = await reader.getTransactionCount({address: funded});
    await helpers.setNonce(funded, sender + 7);
    const receipt = await transfer(funded, randomAddress(), 1n);
    expect((await reader.getTransaction({hash: receipt.transactionHash})).nonce).toBe(sender + 7);
    expect(await reader.getTransactionCount({address: funded})).toBe(sender + 8);
  });

  it("impersonateAccount: a send from an address without its key is mined as from it; refused once stopped", async () => {
    const impersonated = randomAddress();
    const to = randomAddress();
    await helpers.setBalance(impersonated, 10n ** 20n);
    await helpers.impersonateAccount(impersonated);
    const receipt = await transfer(impersonated, to, 1000n);
    expect(receipt.status).toBe("success");
    expect(receipt.from.toLowerCase()).toBe(impersonated.toLowerCase());
    expect(await reader.getBalance({address: to})).toBe(1000n);
    expect(await reader.getTransactionCount({address: impersonated})).toBe(1);

    await helpers.stopImpersonatingAccount(impersonated);
    await expect(transfer(impersonated, to, 1n)).rejects.toThrow();
    expect(await reader.getBalance({address: to})).toBe(1000n);
  });

  it("takeSnapshot and restore: back to the snapshot's head and state, more than once", async () => {
    const address = randomAddress();
    await helpers.setBalance(address, 1n);
    const snapshot = await helpers.takeSnapshot();
    const head = await reader.getBlock();

    for (let round = 0; round < 2; round++) {
      await helpers.setBalance(address, 99n);
      await transfer(funded, address, 1n);
      await helpers.mine(3);
      expect(await reader.getBlockNumber()).toBeGreaterThan(head.number);
      await snapshot.restore();
      expect((await reader.getBlock()).hash).toBe(head.hash);
      expect(await reader.getBalance({address})).toBe(1n);
    }
  });

  it("loadFixture: runs the fixture once, then restores its state and returns its data", async () => {
    const recipient = randomAddress();
    let runs = 0;
    async function fundRecipient() {
      runs++;
      const receipt = await transfer(funded, recipient, 500n);
      return {recipient, blockNumber: receipt.blockNumber};
    }
    const first = await helpers.loadFixture(fundRecipient);
    await transfer(funded, recipient, 1n);
    await helpers.mine(2);

    const second = await helpers.loadFixture(fundRecipient);
    expect(runs).toBe(1);
    expect(second).toBe(first);
    expect(await reader.getBlockNumber()).toBe(first.blockNumber);
    expect(await reader.getBalance({address: recipient})).toBe(500n);
  });

  it("dropTransaction: a pending transaction leaves the pool and is never mined", async () => {
    // Hardhat answers true, then false; anvil answers the dropped hash, then null (to both prefixes).
    const [dropped, notFound] = target.kind === "anvil" ? [undefined, null] : [true, false];
    const to = randomAddress();
    await send("evm_setAutomine", [false]);
    try {
      const hash = await send<Hex>("eth_sendTransaction", [{from: funded, to, value: "0x1"}]);
      expect(await reader.getTransaction({hash})).toMatchObject({hash, blockNumber: null});
      expect(await helpers.dropTransaction(hash)).toBe(dropped ?? hash);
      expect(await send("eth_getTransactionByHash", [hash])).toBeNull();
      expect(await helpers.dropTransaction(hash)).toBe(notFound);
      await helpers.mine();
      expect(await send("eth_getTransactionReceipt", [hash])).toBeNull();
      expect(await reader.getBalance({address: to})).toBe(0n);
    } finally {
      await send("evm_setAutomine", [true]);
    }
  });

  it("reset: back to genesis, edits and blocks gone", async () => {
    const address = randomAddress();
    await helpers.setBalance(address, 7n);
    const genesis = await reader.getBlock({blockNumber: 0n});
    await helpers.reset();
    expect(await reader.getBlockNumber()).toBe(0n);
    // xchain's genesis is its chainspec's; anvil makes a new one (the time of the reset).
    if (target.kind === "xchain") expect((await reader.getBlock()).hash).toBe(genesis.hash);
    expect(await reader.getBalance({address})).toBe(0n);
    await helpers.mine();
    expect(await reader.getBlockNumber()).toBe(1n);
  });
});
