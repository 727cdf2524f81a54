// End-to-end: the accounts group of the anvil and Hardhat controls (docs/rpc.md §4.10) on a regtest
// node, driven by viem's test client in both modes: impersonate an address with no key, send a
// transfer and a deployment from it, stop impersonating, auto-impersonation, eth_sendUnsignedTransaction,
// and the senders read back after a restart.
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  type Hash,
  http,
  keccak256,
  parseEther,
  toBytes,
} from "viem";
import {privateKeyToAccount} from "viem/accounts";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {COUNTER_ABI, counterBytecode} from "../support/counterContract.ts";
import {regtestChain} from "../support/viemChain.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

let node: RunningNode;
/** Every impersonated transaction sent, with the sender it must keep. */
const sent: {hash: Hash; from: Address}[] = [];

beforeAll(async () => {
  node = await startNode(["--p2p.enabled", "false"]);
});

afterAll(async () => {
  await node?.stop();
});

function clients(mode: "anvil" | "hardhat") {
  const chain = regtestChain(node.httpUrl);
  const transport = http(node.httpUrl);
  return {
    publicClient: createPublicClient({chain, transport, pollingInterval: 50}),
    walletClient: createWalletClient({chain, transport}),
    testClient: createTestClient({chain, mode, transport}),
  };
}

/** An address no key is known for, funded from a dev account (setBalance is another control). */
async function fundedKeyless(label: string): Promise<Address> {
  const address = getAddress(`0x${keccak256(toBytes(label)).slice(-40)}`);
  const {publicClient} = clients("anvil");
  const walletClient = createWalletClient({
    account: privateKeyToAccount(keccak256(toBytes("cow4"))),
    chain: regtestChain(node.httpUrl),
    transport: http(node.httpUrl),
  });
  const hash = await walletClient.sendTransaction({to: address, value: parseEther("10"), type: "legacy"});
  expect((await publicClient.waitForTransactionReceipt({hash})).status).toBe("success");
  return address;
}

for (const mode of ["anvil", "hardhat"] as const) {
  describe(`viem's test client, mode ${mode}`, () => {
    it("impersonates an address without a key: a transfer and a deployment from it, mined with the right from", async () => {
      const {publicClient, walletClient, testClient} = clients(mode);
      const keyless = await fundedKeyless(`keyless ${mode}`);
      const to = getAddress(`0x${keccak256(toBytes(`to ${mode}`)).slice(-40)}`);
      await testClient.impersonateAccount({address: keyless});

      const transfer = await walletClient.sendTransaction({account: keyless, to, value: 1234n, type: "legacy"});
      const transferReceipt = await publicClient.waitForTransactionReceipt({hash: transfer});
      expect([transferReceipt.status, getAddress(transferReceipt.from)]).toEqual(["success", keyless]);
      expect(await publicClient.getBalance({address: to})).toBe(1234n);

      const deploy = await walletClient.deployContract({
        account: keyless,
        abi: COUNTER_ABI,
        bytecode: counterBytecode(),
        // viem leaves gas to the node for a JSON-RPC account, and eth_sendTransaction's default is
        // rskj's 90,000 (docs/rpc.md §8), short of a deployment.
        gas: 1_000_000n,
        type: "legacy",
      });
      const deployReceipt = await publicClient.waitForTransactionReceipt({hash: deploy});
      expect(deployReceipt.status).toBe("success");
      const counter = deployReceipt.contractAddress as Address;
      expect(await publicClient.getTransactionCount({address: keyless})).toBe(2);

      // A call from it: the event names it as msg.sender.
      const increment = await walletClient.writeContract({
        account: keyless,
        address: counter,
        abi: COUNTER_ABI,
        functionName: "increment",
        type: "legacy",
      });
      const incrementReceipt = await publicClient.waitForTransactionReceipt({hash: increment});
      const [log] = await publicClient.getContractEvents({
        address: counter,
        abi: COUNTER_ABI,
        eventName: "Incremented",
        blockHash: incrementReceipt.blockHash,
      });
      expect(log?.args.by).toBe(keyless);
      for (const hash of [transfer, deploy, increment]) {
        expect(getAddress((await publicClient.getTransaction({hash})).from)).toBe(keyless);
        sent.push({hash, from: keyless});
      }

      await testClient.stopImpersonatingAccount({address: keyless});
      await expect(walletClient.sendTransaction({account: keyless, to, value: 1n, type: "legacy"})).rejects.toThrow(
        `unknown account ${keyless.toLowerCase()}, and not impersonated (anvil_impersonateAccount)`,
      );
    });
  });
}

describe("anvil_autoImpersonateAccount and eth_sendUnsignedTransaction", () => {
  it("auto-impersonation sends from any address while on", async () => {
    const {publicClient, walletClient, testClient} = clients("anvil");
    const keyless = await fundedKeyless("keyless auto");
    await testClient.request({method: "anvil_autoImpersonateAccount", params: [true]} as never);
    const hash = await walletClient.sendTransaction({account: keyless, to: keyless, value: 1n, type: "legacy"});
    expect(getAddress((await publicClient.waitForTransactionReceipt({hash})).from)).toBe(keyless);
    sent.push({hash, from: keyless});
    await testClient.request({method: "anvil_autoImpersonateAccount", params: [false]} as never);
    await expect(
      walletClient.sendTransaction({account: keyless, to: keyless, value: 1n, type: "legacy"}),
    ).rejects.toThrow("not impersonated");
  });

  it("viem's sendUnsignedTransaction sends as `from` without impersonating it", async () => {
    const {publicClient, testClient} = clients("anvil");
    const keyless = await fundedKeyless("keyless unsigned");
    const hash = await testClient.sendUnsignedTransaction({from: keyless, to: keyless, value: 5n});
    const receipt = await publicClient.waitForTransactionReceipt({hash});
    expect([receipt.status, getAddress(receipt.from)]).toEqual(["success", keyless]);
    sent.push({hash, from: keyless});
  });
});

describe("after a restart", () => {
  it("eth_getTransactionByHash and the receipts still give each impersonated sender", async () => {
    expect(sent.length).toBe(8);
    const {dataDir} = node;
    await node.stop();
    node = await startNode(["--p2p.enabled", "false"], dataDir);
    const {publicClient} = clients("anvil");
    for (const {hash, from} of sent) {
      expect(getAddress((await publicClient.getTransaction({hash})).from)).toBe(from);
      const receipt = await publicClient.getTransactionReceipt({hash});
      expect([receipt.status, getAddress(receipt.from)]).toEqual(["success", from]);
    }
  });
});
