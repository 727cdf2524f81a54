// End-to-end: instant mining on regtest (docs/mining.md "Instant mining on regtest"). With no
// interval blocks (`--miner.blockTimeMs 0`) and the libraries' default polling interval (4 s),
// ethers' `tx.wait()` and viem's `waitForTransactionReceipt` return quickly only if the receipt
// exists when eth_sendRawTransaction answers: their first look must find it. The tests check that
// look (an order of events), not a time.
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

describe("instant mining on regtest", () => {
  it("ethers 6: five transfers in a row, each receipt there when sendTransaction returns", async () => {
    // ethers answers an identical request from a 250 ms cache: without `cacheTimeout: -1` the next
    // transfer would reuse the previous eth_getTransactionCount (the same holds against anvil).
    const provider = new JsonRpcProvider(node.httpUrl, 33, {staticNetwork: true, cacheTimeout: -1});
    try {
      const cow = new Wallet(id("cow2"), provider);
      for (let i = 0; i < 5; i++) {
        const tx = await cow.sendTransaction({to: Wallet.createRandom().address, value: parseEther("1"), type: 0});
        // What tx.wait() looks at first: found, so it does not poll 4 s later.
        expect((await provider.getTransactionReceipt(tx.hash))?.status).toBe(1);
        expect((await tx.wait())?.status).toBe(1);
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
      const to = privateKeyToAccount(generatePrivateKey()).address;
      const hash = await walletClient.sendTransaction({to, value: 1n, type: "legacy"});
      // What waitForTransactionReceipt looks at first (it throws when there is no receipt yet).
      expect((await publicClient.getTransactionReceipt({hash})).status).toBe("success");
      expect((await publicClient.waitForTransactionReceipt({hash})).status).toBe("success");
    }
  });

  it("eth_sendTransaction from the node's accounts answers once the receipt exists", async () => {
    const [from] = (await rpc(node.httpUrl, "eth_accounts", [])) as string[];
    const hash = await rpc(node.httpUrl, "eth_sendTransaction", [{from, to: from, value: "0x1"}]);
    const receipt = (await rpc(node.httpUrl, "eth_getTransactionReceipt", [hash])) as {status: string} | null;
    expect(receipt?.status).toBe("0x1");
  });
});
