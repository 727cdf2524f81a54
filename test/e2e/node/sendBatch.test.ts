// End-to-end: a batch of raw transactions sent to an instant-mining regtest node, as ethers batches the requests of
// one tick (docs/rpc.md §8, "time of a sending body"). Each send answers once its block is mined, so the batch
// takes one block per transaction; it runs under rpc.sendTimeoutMs, not rpc.requestTimeoutMs, and every
// transaction is answered with its hash and mined. The request budget is 1 ms while the batch is sent, which no
// batch of mined sends fits: the answers can only come from the sending budget. The node is then restarted with
// the default budget to read the receipts.
import {id, Wallet} from "ethers";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {rpc} from "../support/jsonRpc.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

let node: RunningNode;

beforeAll(async () => {
  node = await startNode(["--p2p.enabled", "false", "--rpc.requestTimeoutMs", "1"]);
});

afterAll(async () => {
  await node?.stop();
});

describe("a batch of eth_sendRawTransaction", () => {
  it("answers every transaction's hash and mines them all, past rpc.requestTimeoutMs", async () => {
    // A regtest account no other request of this node has used: its nonce is 0.
    const cow = new Wallet(id("cow"));
    const to = Wallet.createRandom().address;
    const count = 30;
    const raws = await Promise.all(
      Array.from({length: count}, (_, nonce) =>
        cow.signTransaction({to, value: 1n, nonce, gasLimit: 21_000n, gasPrice: 1n, chainId: 33n, type: 0}),
      ),
    );
    const body = raws.map((raw, i) => ({jsonrpc: "2.0", id: i, method: "eth_sendRawTransaction", params: [raw]}));
    const response = await fetch(node.httpUrl, {
      method: "POST",
      headers: {"content-type": "application/json"},
      body: JSON.stringify(body),
    });
    const answers = (await response.json()) as {id: number; result?: string; error?: unknown}[];
    expect(answers.map((a) => [a.id, a.error])).toEqual(raws.map((_, i) => [i, undefined]));
    await node.stop();
    node = await startNode(["--p2p.enabled", "false"], node.dataDir);
    for (const {result} of answers) {
      const receipt = await rpc<{status: string} | null>(node.httpUrl, "eth_getTransactionReceipt", [result]);
      expect(receipt?.status).toBe("0x1");
    }
    expect(await rpc(node.httpUrl, "eth_getBalance", [to, "latest"])).toBe(`0x${count.toString(16)}`);
  });
});
