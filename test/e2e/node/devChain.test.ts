// End-to-end: the chain controls (docs/rpc.md §4.10 "Snapshots, reset, dump and load") on a regtest
// node, driven with viem's test client in both modes: snapshot and revert of blocks, an edited state
// and the pool; reset to genesis (a fork refused); dumpState → reset → loadState bringing back balances,
// code, storage and nonces; and a dump made by real anvil 1.7.1 loaded and read back.
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {type Address, type Hex, numberToHex, pad, parseEther} from "viem";
import {generatePrivateKey, privateKeyToAccount} from "viem/accounts";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {NO_INTERVAL_BLOCKS as FLAGS, SLOT0_READER, viemDevClients} from "../support/devClients.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

const anvilDump = JSON.parse(
  readFileSync(join(import.meta.dirname, "../../vectors/anvil/anvil-1.7.1-state-dump.json"), "utf8"),
) as {
  state: Hex;
  expected: Record<Address, {balance: Hex; nonce: Hex; code: Hex; storage?: Record<Hex, Hex>}>;
};

let node: RunningNode;

beforeAll(async () => {
  node = await startNode(FLAGS);
});

afterAll(async () => {
  await node?.stop();
});

/** A request viem's types do not list (evm_*, and answers read raw). */
function rpc(
  client: {request: (args: never) => Promise<unknown>},
  method: string,
  params: unknown[],
): Promise<unknown> {
  return client.request({method, params} as never);
}

const clients = (mode: "anvil" | "hardhat") => viemDevClients(node.httpUrl, mode);

describe.each(["anvil", "hardhat"] as const)("viem's test client, mode %s", (mode) => {
  it("revert returns to the snapshot's blocks and edited state; the snapshot is then gone", async () => {
    const {account, test, publicClient, wallet} = clients(mode);
    await test.setBalance({address: account.address, value: parseEther("3")});
    const height = await publicClient.getBlockNumber({cacheTime: 0});
    const id = await test.snapshot();

    const to = privateKeyToAccount(generatePrivateKey()).address;
    const hash = await wallet.sendTransaction({to, value: parseEther("1"), type: "legacy", gasPrice: 0n});
    await publicClient.waitForTransactionReceipt({hash});
    await test.setBalance({address: to, value: parseEther("50")});
    expect(await publicClient.getBlockNumber({cacheTime: 0})).toBe(height + 1n);

    await test.revert({id});
    expect(await publicClient.getBlockNumber({cacheTime: 0})).toBe(height);
    expect(await publicClient.getBalance({address: account.address})).toBe(parseEther("3"));
    expect(await publicClient.getBalance({address: to})).toBe(0n);
    expect(await publicClient.getTransactionCount({address: account.address, blockTag: "pending"})).toBe(0);
    // evm_revert forgets the snapshot it reverted to (rskj's and Hardhat's).
    expect(await rpc(publicClient, "evm_revert", [id])).toBe(false);
  });

  it("revert puts back the pool the snapshot saw and drops later transactions", async () => {
    const {account, test, publicClient, wallet} = clients(mode);
    await test.setBalance({address: account.address, value: parseEther("3")});
    const to = privateKeyToAccount(generatePrivateKey()).address;
    await rpc(publicClient, "evm_stopMining", []);
    try {
      const seen = await wallet.sendTransaction({to, value: 1n, type: "legacy", gasPrice: 0n, nonce: 0});
      const id = await test.snapshot();
      const later = await wallet.sendTransaction({to, value: 2n, type: "legacy", gasPrice: 0n, nonce: 1});
      await test.revert({id});
      expect(await rpc(publicClient, "eth_getTransactionByHash", [later])).toBeNull();
      expect(await rpc(publicClient, "eth_getTransactionByHash", [seen])).toMatchObject({hash: seen, blockHash: null});
      await rpc(publicClient, "evm_mine", []);
      expect((await publicClient.getTransactionReceipt({hash: seen})).status).toBe("success");
      expect(await publicClient.getBalance({address: to})).toBe(1n);
    } finally {
      await rpc(publicClient, "evm_startMining", []);
    }
  });

  it("reset goes back to genesis; a fork is refused in plain words", async () => {
    const {account, test, publicClient} = clients(mode);
    await test.setBalance({address: account.address, value: 7n});
    await rpc(publicClient, "evm_mine", []);
    await rpc(publicClient, "evm_mine", []);
    await test.reset();
    expect(await publicClient.getBlockNumber({cacheTime: 0})).toBe(0n);
    expect(await publicClient.getBalance({address: account.address})).toBe(0n);
    await expect(test.reset({jsonRpcUrl: "http://127.0.0.1:1", blockNumber: 5n})).rejects.toThrow(
      /this node is not a fork \(start one with --fork.url\), so it cannot reset to a fork from http:\/\/127\.0\.0\.1:1 at block 5/,
    );
  });

  it("dumpState, reset, loadState: balances, code, storage and nonces come back", async () => {
    const {account, test, publicClient} = clients(mode);
    const contract = privateKeyToAccount(generatePrivateKey()).address;
    const word = pad(numberToHex(0xc0ffeen), {size: 32});
    await test.setBalance({address: account.address, value: parseEther("2")});
    await test.setNonce({address: account.address, nonce: 4});
    await test.setCode({address: contract, bytecode: SLOT0_READER});
    await test.setStorageAt({address: contract, index: 0, value: word});
    await rpc(publicClient, "evm_mine", []);
    const state = await test.dumpState();
    expect(state).toMatch(/^0x1f8b/);

    await test.reset();
    expect(await publicClient.getCode({address: contract})).toBeUndefined();
    await test.loadState({state});
    expect(await publicClient.getBalance({address: account.address})).toBe(parseEther("2"));
    expect(await publicClient.getTransactionCount({address: account.address})).toBe(4);
    expect(await publicClient.getCode({address: contract})).toBe(SLOT0_READER);
    expect(await publicClient.getStorageAt({address: contract, slot: "0x0"})).toBe(word);
    expect((await publicClient.call({to: contract, blockTag: "pending"})).data).toBe(word);
    // The loaded state is the head's: the next block carries it.
    await rpc(publicClient, "evm_mine", []);
    expect(await publicClient.getStorageAt({address: contract, slot: "0x0"})).toBe(word);
  });

  it("loads a dump real anvil made (test/vectors/anvil)", async () => {
    const {test, publicClient} = clients(mode);
    await test.reset();
    await test.loadState({state: anvilDump.state});
    for (const [address, want] of Object.entries(anvilDump.expected) as [
      Address,
      (typeof anvilDump.expected)[Address],
    ][]) {
      expect(await publicClient.getBalance({address})).toBe(BigInt(want.balance));
      expect(await publicClient.getTransactionCount({address})).toBe(Number(want.nonce));
      expect((await publicClient.getCode({address})) ?? "0x").toBe(want.code);
      for (const [slot, value] of Object.entries(want.storage ?? {}) as [Hex, Hex][]) {
        expect(await publicClient.getStorageAt({address, slot})).toBe(value);
      }
    }
  });

  it("a bad state is refused with -32602 and the path of the bad field", async () => {
    const {test} = clients(mode);
    const json = Buffer.from(JSON.stringify({accounts: {"0x12": {}}})).toString("hex");
    await expect(test.loadState({state: `0x${json}`})).rejects.toThrow(/state\.accounts\.0x12 \(address\)/);
    await expect(test.loadState({state: "0x1f8b0000"})).rejects.toThrow(/not valid gzip data/);
  });
});
