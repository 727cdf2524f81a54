/**
 * `/pooledtxs/1` between two real hosts: transactions pushed straight to a peer reach its handler
 * whether or not gossip knows the peer, the answer counts those it admitted, and pushes are cut to
 * the protocol's caps.
 */
import type {Transaction} from "@xchain/primitives";
import {bytesToHex} from "@xchain/utils";
import {afterEach, describe, expect, it} from "vitest";
import {PUSH_BYTES, pushesOf} from "../../src/network.ts";
import type {GossipMessage, GossipVerdict} from "../../src/types.ts";
import {MAX_PUSHED_TRANSACTIONS} from "../../src/wire/transactions.ts";
import {transfer} from "../support/chain.ts";
import {connect, startHost, stopAll} from "../support/hosts.ts";

afterEach(stopAll);

describe("pushed transactions", () => {
  it("reach the peer's handler in order, and the answer counts those it admitted", async () => {
    const [a, b] = [await startHost(), await startHost()];
    await connect(a, b);
    const seen: GossipMessage<Transaction>[] = [];
    b.network.onPushedTransaction(async (message): Promise<GossipVerdict> => {
      seen.push(message);
      return message.value.nonce === 1n ? "ignore" : "accept";
    });
    const txs = [transfer(0n), transfer(1n), transfer(2n)];
    expect(await a.network.sendTransactions(b.network.peerId, txs)).toBe(2);
    expect(seen.map((m) => bytesToHex(m.value.hash()))).toEqual(txs.map((tx) => bytesToHex(tx.hash())));
    expect(new Set(seen.map((m) => m.from))).toEqual(new Set([a.network.peerId]));
  });

  it("are cut into pushes of at most the cap in count and about PUSH_BYTES in size", () => {
    const small = Array.from({length: MAX_PUSHED_TRANSACTIONS * 2 + 1}, () => new Uint8Array(100));
    expect(pushesOf(small).map((p) => p.length)).toEqual([MAX_PUSHED_TRANSACTIONS, MAX_PUSHED_TRANSACTIONS, 1]);
    const large = Array.from({length: 20}, () => new Uint8Array(128 * 1024));
    const pushes = pushesOf(large);
    expect(pushes.flat()).toHaveLength(20);
    for (const push of pushes) expect(push.reduce((n, tx) => n + tx.length, 0)).toBeLessThanOrEqual(PUSH_BYTES);
    expect(pushesOf([])).toEqual([]);
  });
});
