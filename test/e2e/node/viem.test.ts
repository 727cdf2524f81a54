// End-to-end: a regtest node driven with viem 2: a chain defined by its id (33), a local account
// signing legacy transactions, contract deployment, reads, event logs by argument, a revert.
import {
  type Address,
  createPublicClient,
  createWalletClient,
  getAddress,
  http,
  keccak256,
  parseEther,
  toBytes,
} from "viem";
import {generatePrivateKey, privateKeyToAccount} from "viem/accounts";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {COUNTER_ABI, counterBytecode} from "../support/counterContract.ts";
import {regtestChain} from "../support/viemChain.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

let node: RunningNode;

beforeAll(async () => {
  node = await startNode();
});

afterAll(async () => {
  await node?.stop();
});

describe("viem 2 against xchain regtest", () => {
  const account = privateKeyToAccount(keccak256(toBytes("cow1")));
  const clients = () => {
    const chain = regtestChain(node.httpUrl);
    const transport = http(node.httpUrl);
    return {
      publicClient: createPublicClient({chain, transport, pollingInterval: 50}),
      walletClient: createWalletClient({account, chain, transport}),
    };
  };
  let counter: Address;

  it("reads the chain id and a cow balance", async () => {
    const {publicClient} = clients();
    expect(await publicClient.getChainId()).toBe(33);
    expect(await publicClient.getBalance({address: account.address})).toBe(10n ** 30n);
  });

  it("sends a legacy transfer from a local account and waits for the receipt", async () => {
    const {publicClient, walletClient} = clients();
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const hash = await walletClient.sendTransaction({to, value: parseEther("2"), type: "legacy"});
    const receipt = await publicClient.waitForTransactionReceipt({hash});
    expect(receipt.status).toBe("success");
    expect(getAddress(receipt.from)).toBe(account.address);
    expect(await publicClient.getBalance({address: to})).toBe(parseEther("2"));
  });

  it("deploys the contract, writes, reads and filters its events by argument", async () => {
    const {publicClient, walletClient} = clients();
    const deployHash = await walletClient.deployContract({
      abi: COUNTER_ABI,
      bytecode: counterBytecode(),
      type: "legacy",
    });
    const deployed = await publicClient.waitForTransactionReceipt({hash: deployHash});
    counter = deployed.contractAddress as Address;
    const hash = await walletClient.writeContract({
      address: counter,
      abi: COUNTER_ABI,
      functionName: "increment",
      type: "legacy",
    });
    await publicClient.waitForTransactionReceipt({hash});
    expect(await publicClient.readContract({address: counter, abi: COUNTER_ABI, functionName: "count"})).toBe(1n);

    const logs = await publicClient.getContractEvents({
      address: counter,
      abi: COUNTER_ABI,
      eventName: "Incremented",
      args: {by: account.address},
      fromBlock: 0n,
    });
    expect(logs).toHaveLength(1);
    expect(logs[0]?.args).toEqual({by: account.address, value: 1n});
    const none = await publicClient.getContractEvents({
      address: counter,
      abi: COUNTER_ABI,
      eventName: "Incremented",
      args: {value: 7n},
      fromBlock: 0n,
    });
    expect(none).toHaveLength(0);
  });

  it("reports a revert with its reason", async () => {
    const {publicClient} = clients();
    const call = publicClient.readContract({address: counter, abi: COUNTER_ABI, functionName: "fail", args: [11n]});
    await expect(call).rejects.toThrow(/too big/);
  });
});
