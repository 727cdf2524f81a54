import {toData} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {alice, dave} from "../../../support/fixture.ts";
import {signTx, TestNode} from "../../../support/node.ts";

let node: TestNode;
beforeAll(async () => {
  node = await TestNode.start();
});
afterAll(() => node.close());

describe("eth_sendRawTransaction", () => {
  it("admits a signed transaction and returns its hash", async () => {
    const tx = signTx(alice, {nonce: 0n, to: dave.address, value: 1n});
    expect(await node.result("eth_sendRawTransaction", [toData(tx.encode())])).toBe(toData(tx.hash()));
    expect(node.txpool.get(tx.hash())).toBeDefined();
  });

  it("answers a refusal with -32010 and the txpool's reason (docs/protocol/errors.md)", async () => {
    const stale = signTx(dave, {nonce: 0n, to: alice.address, value: 10n ** 31n});
    const error = await node.error("eth_sendRawTransaction", [toData(stale.encode())]);
    expect(error.code).toBe(-32010);
    expect(error.message.length).toBeGreaterThan(0);
    const garbage = await node.error("eth_sendRawTransaction", ["0xc0"]);
    expect(garbage.code).toBe(-32010);
  });

  it("answers a resend of a transaction it has, pending or mined, with its hash, as the first send (docs/rpc.md §4.4)", async () => {
    const tx = signTx(alice, {nonce: 1n, to: dave.address, value: 2n});
    const raw = toData(tx.encode());
    expect(await node.result("eth_sendRawTransaction", [raw])).toBe(toData(tx.hash()));
    // Pending: the pool's "already known" is the first answer again.
    expect(await node.result("eth_sendRawTransaction", [raw])).toBe(toData(tx.hash()));
    // Alice's two pending transactions (nonces 0 and 1) into a block.
    const block = await node.mine({transactions: node.txpool.pending()});
    expect(block.transactions.map((t) => toData(t.hash()))).toContain(toData(tx.hash()));
    // Mined: "nonce too low" for this very transaction is its hash too.
    expect(await node.result("eth_sendRawTransaction", [raw])).toBe(toData(tx.hash()));
    // Another transaction with a spent nonce is still refused.
    const other = signTx(alice, {nonce: 1n, to: dave.address, value: 3n});
    expect((await node.error("eth_sendRawTransaction", [toData(other.encode())])).message).toMatch(/^nonce too low/);
  });

  it("wants DATA", async () => {
    expect((await node.error("eth_sendRawTransaction", ["f86b"])).message).toBe(
      "invalid argument 0 (transaction): hex string without 0x prefix",
    );
  });
});
