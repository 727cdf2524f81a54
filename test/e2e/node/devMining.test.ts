// End-to-end: the mining, time and environment dev controls (docs/rpc.md §4.10) driven with viem's test
// client in both its modes against a regtest node, each action checked by reading the chain back.
import {type Address, createPublicClient, createTestClient, type Hash, http, parseEther} from "viem";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {rpc} from "../support/jsonRpc.ts";
import {regtestChain} from "../support/viemChain.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

const RECIPIENT: Address = "0x00000000000000000000000000000000000000aa";

describe.each(["anvil", "hardhat"] as const)("viem's test client in %s mode", (mode) => {
  let node: RunningNode;
  const clients = () => {
    const chain = regtestChain(node.httpUrl);
    const transport = http(node.httpUrl);
    return {
      test: createTestClient({chain, mode, transport}),
      reader: createPublicClient({chain, transport, pollingInterval: 50}),
    };
  };
  const call = <T>(method: string, params: unknown[] = []) => rpc<T>(node.httpUrl, method, params);
  const latest = () => clients().reader.getBlock({blockTag: "latest"});
  const sendTransfer = async (): Promise<Hash> => {
    const [from] = await call<Address[]>("eth_accounts");
    return call<Hash>("eth_sendTransaction", [{from, to: RECIPIENT, value: "0x1", gas: "0x5208"}]);
  };
  const pooledHashes = async (): Promise<string[]> => {
    // rskj's shape: each nonce holds a list of transactions.
    const content = await call<{pending: Record<string, Record<string, {hash: string}[]>>}>("txpool_content");
    return Object.values(content.pending).flatMap((byNonce) =>
      Object.values(byNonce)
        .flat()
        .map((tx) => tx.hash),
    );
  };

  beforeAll(async () => {
    node = await startNode();
    // A regtest node mines a block every second by default: off, so that only the controls mine.
    expect(await call("evm_setIntervalMining", [0])).toBeNull();
  });
  afterAll(async () => {
    await node?.stop();
  });

  it("mines n blocks spaced by the interval", async () => {
    const before = await latest();
    await clients().test.mine({blocks: 5, interval: 3_600});
    const after = await latest();
    expect(after.number).toBe(before.number + 5n);
    const blocks = await Promise.all(
      [1n, 2n, 3n, 4n].map((i) => clients().reader.getBlock({blockNumber: before.number + 1n + i})),
    );
    const first = await clients().reader.getBlock({blockNumber: before.number + 1n});
    blocks.forEach((block, i) => {
      expect(block.timestamp).toBe(first.timestamp + 3_600n * BigInt(i + 1));
    });
  });

  it("mines n blocks without an interval at least a second apart, and refuses a count past the bound", async () => {
    const before = await latest();
    await clients().test.mine({blocks: 20});
    expect((await latest()).number).toBe(before.number + 20n);
    await expect(call(`${mode}_mine`, ["0xf4240"])).rejects.toThrow(
      "cannot mine 1000000 blocks in one call: at most 1000",
    );
  });

  it("leaves a transaction pending with automine off until a block is mined", async () => {
    const {test} = clients();
    expect(await test.getAutomine()).toBe(true);
    await test.setAutomine(false);
    try {
      expect(await test.getAutomine()).toBe(false);
      const hash = await sendTransfer();
      expect(await pooledHashes()).toContain(hash);
      expect(await call("eth_getTransactionReceipt", [hash])).toBeNull();
      await test.mine({blocks: 1});
      const receipt = await clients().reader.getTransactionReceipt({hash});
      expect(receipt.status).toBe("success");
    } finally {
      await test.setAutomine(true);
    }
  });

  it("drops a pending transaction, and all of them", async () => {
    const {test} = clients();
    await test.setAutomine(false);
    try {
      const first = await sendTransfer();
      await test.dropTransaction({hash: first});
      expect(await pooledHashes()).not.toContain(first);
      await sendTransfer();
      await sendTransfer();
      expect((await pooledHashes()).length).toBe(2);
      await call(`${mode}_dropAllTransactions`);
      expect(await pooledHashes()).toEqual([]);
      const [from] = await call<Address[]>("eth_accounts");
      await sendTransfer();
      await call(`${mode}_removePoolTransactions`, [from]);
      expect(await pooledHashes()).toEqual([]);
    } finally {
      await test.setAutomine(true);
    }
  });

  it("mines on an interval set at run time, and stops when it is 0", async () => {
    const {test} = clients();
    // viem sends seconds to anvil and milliseconds to Hardhat; xchain reads seconds (docs/rpc.md §4.10).
    await test.setIntervalMining({interval: mode === "anvil" ? 1 : 0.001});
    try {
      expect(await call(`${mode}_getIntervalMining`)).toBe(1);
      const start = (await latest()).number;
      await expect.poll(async () => (await latest()).number, {timeout: 15_000, interval: 200}).toBeGreaterThan(start);
    } finally {
      await test.setIntervalMining({interval: 0});
    }
    expect(await call(`${mode}_getIntervalMining`)).toBeNull();
  });

  it("puts the next block at the timestamp set, and refuses one not after the head", async () => {
    const {test} = clients();
    const head = await latest();
    const timestamp = head.timestamp + 86_400n;
    await test.setNextBlockTimestamp({timestamp});
    await test.mine({blocks: 1});
    expect((await latest()).timestamp).toBe(timestamp);
    await expect(test.setNextBlockTimestamp({timestamp})).rejects.toThrow(
      `it must be greater than the head block's timestamp ${timestamp}`,
    );
  });

  it("spaces blocks by the timestamp interval until it is removed", async () => {
    const {test} = clients();
    // viem multiplies by 1000 in Hardhat mode: the interval is what reaches the node.
    const sent = mode === "anvil" ? 7 : 7_000;
    await test.setBlockTimestampInterval({interval: 7});
    try {
      const parent = await latest();
      await test.mine({blocks: 2});
      const child = await clients().reader.getBlock({blockNumber: parent.number + 1n});
      const grandchild = await latest();
      expect(child.timestamp).toBe(parent.timestamp + BigInt(sent));
      expect(grandchild.timestamp).toBe(child.timestamp + BigInt(sent));
    } finally {
      await test.removeBlockTimestampInterval();
    }
    expect(await call(`${mode}_removeBlockTimestampInterval`)).toBe(false);
  });

  it("mines the next block to the coinbase set", async () => {
    const {test} = clients();
    const coinbase: Address = "0x00000000000000000000000000000000000000c0";
    const previous = await call<Address>("eth_coinbase");
    await test.setCoinbase({address: coinbase});
    try {
      await test.mine({blocks: 1});
      expect((await latest()).miner).toBe(coinbase);
      expect(await call("eth_coinbase")).toBe(coinbase);
    } finally {
      await test.setCoinbase({address: previous});
    }
  });

  it("gives the next block the gas limit set within the parent's band", async () => {
    const {test} = clients();
    const parent = await latest();
    const gasLimit = parent.gasLimit + parent.gasLimit / 2048n;
    await test.setBlockGasLimit({gasLimit});
    await test.mine({blocks: 1});
    expect((await latest()).gasLimit).toBe(gasLimit);
    await expect(test.setBlockGasLimit({gasLimit: 1_000n})).rejects.toThrow(
      "cannot set the block gas limit to 1000: this network's blocks carry at least 3000000",
    );
  });

  it("steps the blocks' minimumGasPrice toward the minimum gas price set", async () => {
    const {test} = clients();
    await test.setMinGasPrice({gasPrice: parseEther("1", "gwei")});
    try {
      await test.mine({blocks: 3});
      const block = await call<{minimumGasPrice: string}>("eth_getBlockByNumber", ["latest", false]);
      expect(BigInt(block.minimumGasPrice)).toBeGreaterThan(0n);
    } finally {
      await test.setMinGasPrice({gasPrice: 0n});
    }
  });

  it("switches the dev log and answers nodeInfo and metadata with xchain's values", async () => {
    const {test} = clients();
    await test.setLoggingEnabled(false);
    await test.setLoggingEnabled(true);
    const head = await latest();
    const metadata = await call<Record<string, unknown>>(`${mode}_metadata`);
    expect(metadata).toMatchObject({chainId: 33, latestBlockNumber: Number(head.number), latestBlockHash: head.hash});
    expect(metadata.instanceId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await call(`${mode}_metadata`)).toMatchObject({instanceId: metadata.instanceId});
    const info = await call<Record<string, unknown>>(`${mode}_nodeInfo`);
    expect(info).toMatchObject({
      currentBlockHash: head.hash,
      environment: {baseFee: "0x0", chainId: 33},
      forkConfig: {forkUrl: null, forkBlockNumber: null},
    });
  });

  it("refuses a base fee, prevrandao and the chain id in plain words", async () => {
    const {test} = clients();
    await expect(test.setNextBlockBaseFeePerGas({baseFeePerGas: 1n})).rejects.toThrow(
      "Rootstock has no EIP-1559 base fee",
    );
    await expect(call(`${mode}_setPrevRandao`, [`0x${"11".repeat(32)}`])).rejects.toThrow(
      "Rootstock has no prevrandao",
    );
    await expect(call(`${mode}_setChainId`, [1])).rejects.toThrow("the chain id is fixed by the network");
  });

  it("mines one block at the timestamp evm_mine is given", async () => {
    const head = await latest();
    const timestamp = Number(head.timestamp) + 1_000;
    expect(await call("evm_mine", [timestamp])).toBeNull();
    expect((await latest()).timestamp).toBe(BigInt(timestamp));
    await call("evm_mine", [{timestamp: timestamp + 10, blocks: 2}]);
    const tip = await latest();
    expect(tip.number).toBe(head.number + 3n);
    expect((await clients().reader.getBlock({blockNumber: head.number + 2n})).timestamp).toBe(BigInt(timestamp + 10));
  });
});
