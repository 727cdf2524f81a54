/**
 * Bounded work per request (docs/rpc.md §8): response bytes counted as they are built, a batch that
 * stops at the cap, the memory shared by all responses, and a close that waits for running work.
 */
import {toData} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {buildFixture} from "../../support/fixture.ts";
import {cows, signTx, TestNode} from "../../support/node.ts";

const ALL_LOGS = {fromBlock: "0x0", toBlock: "latest"};
const request = (id: number, method: string, params: unknown[]) => ({jsonrpc: "2.0", id, method, params});

describe("response bytes", () => {
  it("an eth_getLogs over maxResponseBytes answers -32011 with its id, and a batch stops there, keeping its answers", async () => {
    const node = await TestNode.start({rpc: {maxResponseBytes: 1_000}});
    try {
      await buildFixture(node);
      expect(await node.call("eth_getLogs", [ALL_LOGS])).toEqual({
        jsonrpc: "2.0",
        id: 1,
        error: {code: -32011, message: "Response too large: more than 1000 bytes"},
      });
      // One log fits; the batch passes the cap at its second element and the third never runs: the
      // first keeps its answer, the second and third get -32011 with their ids (geth's batch answer).
      const tx = signTx(cows[5]!, {nonce: 0n, to: cows[6]!.address});
      const batch = [
        request(1, "eth_getLogs", [{...ALL_LOGS, toBlock: "0x2", topics: [null, null, null]}]),
        request(2, "eth_getLogs", [ALL_LOGS]),
        request(3, "eth_sendRawTransaction", [toData(tx.encode())]),
      ];
      const {text} = await node.post(JSON.stringify(batch));
      const tooLarge = {code: -32011, message: "Response too large: more than 1000 bytes"};
      const answers = JSON.parse(text);
      expect(answers).toHaveLength(3);
      expect(answers[0]).toMatchObject({id: 1, result: [{blockNumber: expect.any(String)}]});
      expect(answers.slice(1)).toEqual([
        {jsonrpc: "2.0", id: 2, error: tooLarge},
        {jsonrpc: "2.0", id: 3, error: tooLarge},
      ]);
      expect(await node.result("eth_getTransactionByHash", [toData(tx.hash())])).toBeNull();
      // Small answers are unaffected.
      expect(await node.result("eth_chainId")).toBe("0x21");
    } finally {
      await node.close();
    }
  });

  it("answers -32005 naming rpc.maxInFlightResponseBytes once responses would pass it, and gives the bytes back", async () => {
    const node = await TestNode.start({rpc: {maxInFlightResponseBytes: 1_000}});
    try {
      await buildFixture(node);
      expect((await node.call("eth_getLogs", [ALL_LOGS])).error).toEqual({
        code: -32005,
        message: "responses being built use all of rpc.maxInFlightResponseBytes (1000 bytes); retry later",
      });
      for (let i = 0; i < 20; i++) expect(await node.result("eth_chainId")).toBe("0x21");
      expect(
        await node.result("eth_getLogs", [{...ALL_LOGS, toBlock: "0x2", topics: [null, null, null]}]),
      ).toHaveLength(1);
    } finally {
      await node.close();
    }
  });
});

describe("running work", () => {
  it("a timed-out eth_getLogs is aborted, and closing the server waits for its read to end", async () => {
    let readEnded = false;
    let seenSignal: AbortSignal | undefined;
    const node = await TestNode.start({rpc: {requestTimeoutMs: 50}});
    // A read that stops only on the signal, then takes a while to let go (as a database read does).
    const slowChain = new Proxy(node.chain, {
      get: (target, property, receiver) =>
        property === "getLogs"
          ? (_filter: unknown, control: {signal: AbortSignal}) =>
              new Promise((_resolve, reject) => {
                seenSignal = control.signal;
                control.signal.addEventListener("abort", () =>
                  setTimeout(() => {
                    readEnded = true;
                    reject(control.signal.reason);
                  }, 200),
                );
              })
          : Reflect.get(target, property, receiver),
    });
    const slow = await TestNode.start({rpc: {requestTimeoutMs: 50}, deps: {chain: slowChain}});
    try {
      expect((await slow.call("eth_getLogs", [{}])).error?.code).toBe(-32011);
      expect(seenSignal?.aborted).toBe(true);
      expect(slow.server.runningRequests).toBe(1);
      await slow.server.close();
      expect(readEnded).toBe(true);
      expect(slow.server.runningRequests).toBe(0);
    } finally {
      await slow.close();
      await node.close();
    }
  });
});
