import {bytesToHex, toData} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {alice, bob, dave} from "../../support/fixture.ts";
import {signTx, TestNode} from "../../support/node.ts";

let node: TestNode;
const sent = [
  signTx(alice, {nonce: 0n, to: dave.address, value: 1n}),
  signTx(alice, {nonce: 1n, to: undefined, gasLimit: 60_000n, data: Uint8Array.of(0)}),
  signTx(bob, {nonce: 3n, to: dave.address, value: 2n, gasPrice: 0x80n}),
];
beforeAll(async () => {
  node = await TestNode.start();
  for (const tx of sent) await node.result("eth_sendRawTransaction", [toData(tx.encode())]);
});
afterAll(() => node.close());

describe("txpool_status", () => {
  it("counts pending and queued as JSON numbers (docs/protocol/json-rpc.md §4)", async () => {
    expect(await node.result("txpool_status")).toEqual({pending: 2, queued: 1});
  });
});

describe("txpool_content", () => {
  it("nests by sender (hex without 0x) and decimal nonce (docs/protocol/json-rpc.md §4)", async () => {
    const content = await node.result("txpool_content");
    expect(Object.keys(content.pending)).toEqual([bytesToHex(alice.address)]);
    expect(Object.keys(content.pending[bytesToHex(alice.address)])).toEqual(["0", "1"]);
    expect(content.queued[bytesToHex(bob.address)]["3"]).toEqual([
      {
        blockHash: toData(new Uint8Array(32)),
        blockNumber: null,
        transactionIndex: null,
        from: toData(bob.address),
        gas: "0x5208",
        // Java's signed bytes: 0x80 gets a leading zero byte, zero is 0x00.
        gasPrice: "0x0080",
        hash: toData(sent[2]!.hash()),
        input: "0x",
        nonce: "0x3",
        to: toData(dave.address),
        value: "0x02",
      },
    ]);
    expect(content.pending[bytesToHex(alice.address)]["0"][0].gasPrice).toBe("0x00");
  });
});

describe("txpool_inspect", () => {
  it("summarizes each transaction (docs/protocol/json-rpc.md §4)", async () => {
    const inspect = await node.result("txpool_inspect");
    expect(inspect.pending[bytesToHex(alice.address)]).toEqual({
      "0": [`${toData(dave.address)}: 1 wei + 21000 x 0 gas`],
      "1": ["contract creation: 0 wei + 60000 x 0 gas"],
    });
    expect(inspect.queued[bytesToHex(bob.address)]).toEqual({
      "3": [`${toData(dave.address)}: 2 wei + 21000 x 128 gas`],
    });
  });
});
