import {toData} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {cows, signTx, TestNode} from "../../support/node.ts";

/**
 * Runtime code that stores NUMBER in slot 0 when NUMBER is above what slot 0 holds: like a price
 * accumulator, it writes only in a block later than its last update.
 */
const UPDATER_RUNTIME = "6000544311600957005b4360005500";
/** Init code returning UPDATER_RUNTIME (15 bytes from offset 12). */
const UPDATER_INIT = `0x600f600c600039600f6000f3${UPDATER_RUNTIME}`;
/** Code run as a creation: returns NUMBER, then TIMESTAMP, as two words. */
const NUMBER_AND_TIME = "0x4360005242602052604060" + "00f3";

let node: TestNode;
let updater: string;
const recipient = "0x00000000000000000000000000000000000000aa";

beforeAll(async () => {
  node = await TestNode.start({miner: {}});
  const deploy = signTx(cows[0]!, {nonce: 0n, gasLimit: 200_000n, data: hexBytes(UPDATER_INIT)});
  await node.mine({transactions: [deploy]});
  const receipt = await node.result("eth_getTransactionReceipt", [toData(deploy.hash())]);
  updater = receipt.contractAddress;
});
afterAll(() => node.close());

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.replace(/^0x/, ""), "hex"));
}

describe("the pending block (docs/rpc.md §4.3)", () => {
  it("is the next block on the head, without number, hash, nonce and logs bloom", async () => {
    const head = await node.result("eth_getBlockByNumber", ["latest", false]);
    const pending = await node.result("eth_getBlockByNumber", ["pending", false]);
    expect(pending).toMatchObject({number: null, hash: null, nonce: null, logsBloom: null, parentHash: head.hash});
    expect(Number(pending.timestamp)).toBeGreaterThan(Number(head.timestamp));
    expect(BigInt(pending.totalDifficulty)).toBe(BigInt(head.totalDifficulty) + BigInt(pending.difficulty));
    // Only the REMASC transaction: the pool is empty.
    expect(pending.transactions).toHaveLength(1);
  });

  it("holds the pool's transactions, applied: the state methods read their effects at `pending` only", async () => {
    const tx = signTx(cows[1]!, {nonce: 0n, to: hexBytes(recipient), value: 1234n});
    await node.result("eth_sendRawTransaction", [toData(tx.encode())]);
    expect(await node.result("eth_getBalance", [recipient, "latest"])).toBe("0x0");
    expect(await node.result("eth_getBalance", [recipient, "pending"])).toBe("0x4d2");
    const pending = await node.result("eth_getBlockByNumber", ["pending", true]);
    expect(pending.transactions[0]).toMatchObject({
      hash: toData(tx.hash()),
      blockHash: null,
      blockNumber: null,
      transactionIndex: null,
    });
    expect(await node.result("eth_getBlockTransactionCountByNumber", ["pending"])).toBe("0x2");
    expect(await node.result("eth_getTransactionByBlockNumberAndIndex", ["pending", "0x0"])).toMatchObject({
      hash: toData(tx.hash()),
      blockHash: null,
    });
    const traces = await node.result("trace_block", ["pending"]);
    expect(traces.map((t: {transactionHash: string}) => t.transactionHash)).toContain(toData(tx.hash()));
    // Mined, the transaction leaves the pool and `latest` catches up.
    await node.mine({transactions: [tx]});
    expect(await node.result("eth_getBalance", [recipient, "latest"])).toBe("0x4d2");
    const next = await node.result("eth_getBlockByNumber", ["pending", false]);
    expect(next.transactions).toHaveLength(1);
  });

  it("is the block context of eth_call at `pending`: number + 1 and a later timestamp", async () => {
    const head = await node.result("eth_getBlockByNumber", ["latest", false]);
    const pending = await node.result("eth_getBlockByNumber", ["pending", false]);
    const atLatest = await node.result("eth_call", [{data: NUMBER_AND_TIME}, "latest"]);
    const atPending = await node.result("eth_call", [{data: NUMBER_AND_TIME}, "pending"]);
    expect(BigInt(atLatest.slice(0, 66))).toBe(BigInt(head.number));
    expect(BigInt(atPending.slice(0, 66))).toBe(BigInt(head.number) + 1n);
    expect(BigInt(`0x${atPending.slice(66)}`)).toBe(BigInt(pending.timestamp));
  });

  it("is eth_estimateGas's default block, so writes the next block performs are paid for", async () => {
    // Updated in the head block: at `latest` NUMBER equals the stored number.
    await node.mine({transactions: [signTx(cows[3]!, {nonce: 0n, gasLimit: 100_000n, to: hexBytes(updater)})]});
    const call = {from: toData(cows[2]!.address), to: updater};
    const latest = BigInt(await node.result("eth_estimateGas", [call, "latest"]));
    const byDefault = BigInt(await node.result("eth_estimateGas", [call]));
    // At `latest` NUMBER equals the stored number: no write. The next block writes.
    expect(byDefault).toBeGreaterThan(latest + 4_000n);
    // The estimate is what the transaction needs in the next block.
    const tx = signTx(cows[2]!, {nonce: 0n, gasLimit: byDefault, to: hexBytes(updater)});
    await node.mine({transactions: [tx]});
    const receipt = await node.result("eth_getTransactionReceipt", [toData(tx.hash())]);
    expect(receipt.status).toBe("0x1");
  });
});
