// End-to-end: the regtest log a developer reads (docs/operations.md §4): one info line per
// transaction of each new block, with its hash, sender, recipient or created contract, status, the
// revert reason and the gas used; blocks without transactions stay out of the info lines.
import {type Abi, encodeFunctionData} from "viem";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {rpc} from "../support/jsonRpc.ts";
import {revertContract} from "../support/revertContract.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

/** The first cow account, a dev account of the regtest node (docs/protocol/networks.md §3). */
const COW = "0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826";
const INFO = 30;

let node: RunningNode;
beforeAll(async () => {
  node = await startNode();
});
afterAll(async () => {
  await node?.stop();
});

/** The info line that tells of transaction `hash`, waited for (the log follows the head). */
async function lineOf(hash: string): Promise<Record<string, unknown>> {
  for (let tries = 0; tries < 200; tries++) {
    const line = node.logs.find((l) => l.hash === hash && typeof l.status === "string");
    if (line) return line;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no log line for ${hash}`);
}

/** Sends from the dev account with a gas limit (no estimate, so a reverting call is mined too). */
function send(tx: {to?: string; data: string}): Promise<string> {
  return rpc<string>(node.httpUrl, "eth_sendTransaction", [{from: COW, gas: "0x100000", ...tx}]);
}

describe("the transaction log of a regtest node", () => {
  const abi = () => revertContract().abi as Abi;
  let contract: string;

  it("writes a contract creation with the created address", async () => {
    const hash = await send({data: revertContract().bytecode});
    const receipt = await rpc<{contractAddress: string; gasUsed: string}>(node.httpUrl, "eth_getTransactionReceipt", [
      hash,
    ]);
    contract = receipt.contractAddress;
    const line = await lineOf(hash);
    expect(line).toMatchObject({level: INFO, from: COW, created: contract, status: "success"});
    expect(line.gasUsed).toBe(Number(receipt.gasUsed));
    expect(line.msg).toBe(
      `transaction ${hash} from ${COW} created ${contract}: success, ${Number(receipt.gasUsed).toLocaleString("en-US")} gas`,
    );
  });

  it("writes a successful call with its recipient", async () => {
    const hash = await send({to: contract, data: encodeFunctionData({abi: abi(), functionName: "add", args: [5n]})});
    const line = await lineOf(hash);
    expect(line).toMatchObject({level: INFO, from: COW, to: contract, status: "success"});
    expect(line.reason).toBeUndefined();
    expect(line.msg).toMatch(new RegExp(`^transaction ${hash} from ${COW} to ${contract}: success, [\\d,]+ gas$`));
  });

  it("writes a reverted transaction with its reason", async () => {
    const hash = await send({to: contract, data: encodeFunctionData({abi: abi(), functionName: "add", args: [500n]})});
    const receipt = await rpc<{status: string}>(node.httpUrl, "eth_getTransactionReceipt", [hash]);
    expect(receipt.status).toBe("0x0");
    const line = await lineOf(hash);
    expect(line).toMatchObject({level: INFO, to: contract, status: "reverted", reason: "add: too much"});
    expect(line.msg).toMatch(/: reverted: add: too much, [\d,]+ gas$/);
  });

  it("keeps blocks without transactions out of the info lines", async () => {
    await rpc(node.httpUrl, "evm_mine");
    const head = Number(await rpc<string>(node.httpUrl, "eth_blockNumber"));
    // The mined block is written (at debug, so not here) before eth_blockNumber's answer could be read.
    await lineOf(await send({to: contract, data: encodeFunctionData({abi: abi(), functionName: "add", args: [1n]})}));
    const blockLines = node.logs.filter((l) => typeof l.txs === "number" && Number(l.level) >= INFO);
    expect(blockLines.filter((l) => l.txs === 0)).toEqual([]);
    expect(blockLines.some((l) => Number(l.number) > head)).toBe(true);
  });
});
