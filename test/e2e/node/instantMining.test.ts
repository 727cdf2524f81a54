// End-to-end: instant mining on regtest (docs/mining.md "Instant mining on regtest"). With no
// interval blocks (`--miner.blockTimeMs 0`) and the libraries' default polling interval (4 s),
// ethers' `tx.wait()` and viem's `waitForTransactionReceipt` return quickly only if the receipt
// exists when eth_sendRawTransaction answers: their first look must find it.
import {id, JsonRpcProvider, parseEther, Wallet} from "ethers";
import {createPublicClient, createWalletClient, http, keccak256, toBytes} from "viem";
import {generatePrivateKey, privateKeyToAccount} from "viem/accounts";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {rpc} from "../support/jsonRpc.ts";
import {regtestChain} from "../support/viemChain.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

let node: RunningNode;

beforeAll(async () => {
  node = await startNode(["--miner.blockTimeMs", "0"]);
});

afterAll(async () => {
  await node?.stop();
});

/** Milliseconds `work` took. */
async function timed<T>(work: () => Promise<T>): Promise<{ms: number; result: T}> {
  const started = performance.now();
  const result = await work();
  return {ms: performance.now() - started, result};
}

describe("instant mining on regtest", () => {
  it("ethers 6: five transfers in a row, each sendTransaction + wait() well under a second", async () => {
    // ethers answers an identical request from a 250 ms cache: without `cacheTimeout: -1` the next
    // transfer would reuse the previous eth_getTransactionCount (the same holds against anvil).
    const provider = new JsonRpcProvider(node.httpUrl, 33, {staticNetwork: true, cacheTimeout: -1});
    try {
      const cow = new Wallet(id("cow2"), provider);
      for (let i = 0; i < 5; i++) {
        const {ms, result: receipt} = await timed(async () => {
          const tx = await cow.sendTransaction({to: Wallet.createRandom().address, value: parseEther("1"), type: 0});
          return tx.wait();
        });
        expect(receipt?.status).toBe(1);
        expect(ms).toBeLessThan(1_000);
      }
    } finally {
      provider.destroy();
    }
  });

  it("viem 2: waitForTransactionReceipt finds the receipt at once", async () => {
    const chain = regtestChain(node.httpUrl);
    const transport = http(node.httpUrl);
    const publicClient = createPublicClient({chain, transport});
    const walletClient = createWalletClient({
      account: privateKeyToAccount(keccak256(toBytes("cow3"))),
      chain,
      transport,
    });
    for (let i = 0; i < 3; i++) {
      const {ms, result: receipt} = await timed(async () => {
        const to = privateKeyToAccount(generatePrivateKey()).address;
        const hash = await walletClient.sendTransaction({to, value: 1n, type: "legacy"});
        return publicClient.waitForTransactionReceipt({hash});
      });
      expect(receipt.status).toBe("success");
      expect(ms).toBeLessThan(1_000);
    }
  });

  it("eth_sendTransaction from the node's accounts answers once the receipt exists", async () => {
    const [from] = (await rpc(node.httpUrl, "eth_accounts", [])) as string[];
    const hash = await rpc(node.httpUrl, "eth_sendTransaction", [{from, to: from, value: "0x1"}]);
    const receipt = (await rpc(node.httpUrl, "eth_getTransactionReceipt", [hash])) as {status: string} | null;
    expect(receipt?.status).toBe("0x1");
  });
});
