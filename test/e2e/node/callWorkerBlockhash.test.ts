// End-to-end: BLOCKHASH in eth_call on a node whose calls run on a call worker (rpc.callWorkers 1).
// The worker reads the ancestors from the headers the chain stored (execution's
// calls/storedAncestors.ts), so its answers must be the hashes eth_getBlockByNumber gives.
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {rpc} from "../support/jsonRpc.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

let node: RunningNode;

beforeAll(async () => {
  node = await startNode(["--rpc.callWorkers", "1"]);
  for (let i = 0; i < 6; i++) await rpc(node.httpUrl, "evm_mine");
});

afterAll(async () => {
  await node?.stop();
});

const quantity = (n: number) => `0x${n.toString(16)}`;

/** Creation code returning BLOCKHASH(n): PUSH1 n BLOCKHASH PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN. */
const blockHashCode = (n: number) => `0x60${n.toString(16).padStart(2, "0")}4060005260206000f3`;

async function hashOf(n: number): Promise<string> {
  return (await rpc<{hash: string}>(node.httpUrl, "eth_getBlockByNumber", [quantity(n), false])).hash;
}

describe("BLOCKHASH on a call worker", () => {
  it("answers the stored chain's hashes at the head and below it, zero outside the window", async () => {
    const head = Number(await rpc<string>(node.httpUrl, "eth_blockNumber"));
    expect(head).toBeGreaterThanOrEqual(6);
    for (const [at, n] of [
      [head, head - 1],
      [head, head - 4],
      [head, 0],
      [head - 2, head - 3],
    ] as const) {
      const answer = await rpc<string>(node.httpUrl, "eth_call", [{data: blockHashCode(n)}, quantity(at)]);
      expect(answer).toBe(await hashOf(n));
    }
    // At `head` itself, not "latest": the node mines a block a second, and a block mined since would see `head`'s hash.
    const own = await rpc<string>(node.httpUrl, "eth_call", [{data: blockHashCode(head)}, quantity(head)]);
    expect(BigInt(own)).toBe(0n);
  });
});
