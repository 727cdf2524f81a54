// End-to-end: a block the node mines is stamped when mining starts. After each new head the built-in
// miner builds the next template at once (it looks for pending transactions); a block mined from it a
// second or more later carried that earlier time (regtest blocks about 1.5 s in the past under the 1 s
// interval). The block's timestamp is compared with the wall clock read before the request, by order.
import {setTimeout as sleep} from "node:timers/promises";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {rpc} from "../support/jsonRpc.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

let node: RunningNode;

beforeAll(async () => {
  // No interval blocks: only evm_mine mines, so the template it takes is the one built after the last head.
  node = await startNode(["--miner.blockTimeMs", "0"]);
});

afterAll(async () => {
  await node?.stop();
});

describe("a block mined on request", () => {
  it("carries the time of the request, not the time its template was built", async () => {
    await rpc(node.httpUrl, "evm_mine");
    // The template of block 2 is built after block 1 arrives; let the clock pass a second boundary.
    await sleep(1_100);
    const requestedAt = Math.floor(Date.now() / 1000);
    await rpc(node.httpUrl, "evm_mine");
    const block = await rpc<{number: string; timestamp: string}>(node.httpUrl, "eth_getBlockByNumber", [
      "latest",
      false,
    ]);
    expect(block.number).toBe("0x2");
    expect(Number(block.timestamp)).toBeGreaterThanOrEqual(requestedAt);
  });
});
