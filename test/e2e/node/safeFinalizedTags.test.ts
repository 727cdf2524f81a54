// End-to-end: viem 2 and ethers 6 ask a regtest node for the `safe` and `finalized` blocks and for a
// balance at them (docs/rpc.md §4.3); with `--rpc.safeDepth 2 --rpc.finalizedDepth 4` they are the
// head minus 2 and minus 4 confirmations, genesis while the chain is shorter. Blocks come only from
// the transfer and `evm_mine` (`--miner.blockTimeMs 0`), so the heights are known.
import {id, JsonRpcProvider, Wallet} from "ethers";
import {createPublicClient, http} from "viem";
import {generatePrivateKey, privateKeyToAccount} from "viem/accounts";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {NO_INTERVAL_BLOCKS} from "../support/devClients.ts";
import {rpc} from "../support/jsonRpc.ts";
import {regtestChain} from "../support/viemChain.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

let node: RunningNode;
let provider: JsonRpcProvider;
beforeAll(async () => {
  node = await startNode([
    "--p2p.enabled",
    "false",
    ...NO_INTERVAL_BLOCKS,
    "--rpc.safeDepth",
    "2",
    "--rpc.finalizedDepth",
    "4",
  ]);
  provider = new JsonRpcProvider(node.httpUrl, undefined, {cacheTimeout: -1});
});
afterAll(async () => {
  provider?.destroy();
  await node?.stop();
});

const viem = () => createPublicClient({chain: regtestChain(node.httpUrl), transport: http(node.httpUrl)});
const mine = async (blocks: number) => {
  for (let i = 0; i < blocks; i++) await rpc(node.httpUrl, "evm_mine");
};

describe("safe and finalized through viem and ethers", () => {
  const payee = privateKeyToAccount(generatePrivateKey()).address;
  const paid = 12_345n;

  it("answer genesis on a chain shorter than their depth", async () => {
    expect(await viem().getBlockNumber()).toBe(0n);
    expect((await viem().getBlock({blockTag: "safe"})).number).toBe(0n);
    expect((await provider.getBlock("finalized"))?.number).toBe(0);
  });

  it("answer the head minus their depth, and the balance after that block", async () => {
    // Block 1 pays the payee (instant mining), two more make the head 3: safe is block 1, finalized genesis.
    const receipt = await (
      await new Wallet(id("cow"), provider).sendTransaction({to: payee, value: paid, type: 0})
    ).wait();
    expect(receipt?.blockNumber).toBe(1);
    await mine(2);
    const client = viem();
    expect(await client.getBlockNumber()).toBe(3n);
    const safe = await client.getBlock({blockTag: "safe"});
    expect(safe.number).toBe(1n);
    expect(safe.hash).toBe((await client.getBlock({blockNumber: 1n})).hash);
    expect(await client.getBalance({address: payee, blockTag: "safe"})).toBe(paid);
    expect(await client.getBalance({address: payee, blockTag: "finalized"})).toBe(0n);
    expect(await provider.getBalance(payee, "safe")).toBe(paid);
    expect(await provider.getBalance(payee, "finalized")).toBe(0n);
    // Two more: head 5, finalized is block 1, where the payment is.
    await mine(2);
    expect((await provider.getBlock("finalized"))?.number).toBe(1);
    expect((await client.getBlock({blockTag: "finalized"})).number).toBe(1n);
    expect((await provider.getBlock("safe"))?.number).toBe(3);
    expect(await client.getBalance({address: payee, blockTag: "finalized"})).toBe(paid);
  });
});
