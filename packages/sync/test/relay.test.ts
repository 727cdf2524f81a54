/**
 * The relay over fake networks: gossiped blocks and transactions in (accepted, rejected, ignored,
 * scored), our blocks and transactions out (published once, no echo; pushed to a peer that connects
 * and past a gossip that reaches no one), status announcements, and a
 * block with an unknown parent handing over to the sync manager.
 */
import {SenderRecovery} from "@xchain/chain";
import {PeerEvent} from "@xchain/p2p";
import {type Block, Transaction} from "@xchain/primitives";
import {headerValues} from "@xchain/test-utils";
import {bytesToHex} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import type {FakeHub} from "./support/fakeNetwork.ts";
import {GatedStore} from "./support/gatedStore.ts";
import {syncSuite} from "./support/suite.ts";
import {cows, hex, newHub, regtest, TestNode, transfer, waitFor} from "./support/testNode.ts";

const suite = syncSuite();

async function node(hub: FakeHub, id: string, blocks: readonly Block[], relay = true): Promise<TestNode> {
  const created = await suite.node(hub, id, blocks);
  if (relay) created.startRelay();
  return created;
}

/** Two relaying nodes at block 10, linked. */
async function pair(): Promise<{hub: FakeHub; local: TestNode; peer: TestNode}> {
  const hub = newHub();
  const local = await node(hub, "local", suite.f.main.slice(0, 10));
  const peer = await node(hub, "peer", suite.f.main.slice(0, 10));
  hub.connect("local", "peer");
  return {hub, local, peer};
}

describe("Relay", () => {
  it("imports and accepts a gossiped block on our head, forwards it, and does not publish it again", async () => {
    const {hub, local, peer} = await pair();
    const third = await node(hub, "third", suite.f.main.slice(0, 10));
    hub.connect("local", "third");

    // "Mined" on the peer: its relay publishes it.
    await peer.importBlocks([suite.f.main[10]!]);
    expect(peer.network.publishedBlocks.map(hex)).toEqual([hex(suite.f.main[10]!)]);
    await waitFor(() => third.chain.head().number === 11, "the third node at 11");

    expect(local.headHex()).toBe(hex(suite.f.main[10]!));
    expect(hub.verdicts.filter((v) => v.node === "local")).toEqual([
      {node: "local", from: "peer", topic: "block", hash: hex(suite.f.main[10]!), verdict: "accept"},
    ]);
    expect(local.network.reportsAbout("peer")).toEqual([PeerEvent.VALID_BLOCK]);
    // The third node got it from local: gossip forwards what a node accepts.
    expect(hub.verdicts.filter((v) => v.node === "third").map((v) => [v.from, v.verdict])).toEqual([
      ["local", "accept"],
    ]);
    expect(local.network.publishedBlocks).toEqual([]);
    expect(local.network.announced.map((s) => s.bestNumber)).toEqual([11]);
    expect(local.network.announced[0]).toMatchObject({networkId: 7771, genesisHash: local.chain.genesisHash});
  });

  it("rejects and reports an invalid block, again when it comes back, and ignores a known one", async () => {
    const {local} = await pair();
    const parent = suite.f.main[9]!;
    const good = suite.f.main[10]!;
    const bad = suite.f.builder.sealBlock(
      {...headerValues(good.header), stateRoot: new Uint8Array(32).fill(7)},
      good.transactions,
      good.uncles,
    );
    expect(bad.header.parentHash).toEqual(parent.hash());

    expect(await local.network.deliver("block", "peer", bad.encode())).toBe("reject");
    expect(await local.network.deliver("block", "peer", bad.encode())).toBe("reject");
    expect(local.network.reportsAbout("peer")).toEqual([PeerEvent.INVALID_BLOCK, PeerEvent.INVALID_BLOCK]);
    expect(local.chain.head().number).toBe(10);
    expect(await local.network.deliver("block", "peer", parent.encode())).toBe("ignore");
    expect(local.network.reportsAbout("peer")).toHaveLength(2);
  });

  it("ignores a block with an unknown parent and syncs from its sender", async () => {
    const hub = newHub();
    const peer = await node(hub, "peer", suite.f.main.slice(0, 15), false);
    const local = await suite.node(hub, "local", suite.f.main.slice(0, 10));
    // minBlocksBehind 50: the status alone would not start a sync.
    const sync = local.startSync({minBlocksBehind: 50});
    local.startRelay();
    hub.connect("local", "peer");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sync.progress()).toBeUndefined();
    expect(hub.requests).toEqual([]);

    expect(await local.network.deliver("block", "peer", suite.f.main[14]!.encode())).toBe("ignore");
    await waitFor(() => local.chain.head().number === 15, "head 15");
    expect(local.headHex()).toBe(peer.headHex());
    expect(local.network.reportsAbout("peer")).toEqual([]);
    // Synced blocks are not gossiped; the status is announced (throttled while syncing, the last head always).
    expect(local.network.publishedBlocks).toEqual([]);
    await waitFor(() => local.network.announced.at(-1)?.bestNumber === 15, "status 15");
    expect(local.network.announced.length).toBeLessThanOrEqual(3);
  });

  it("syncs from the sender of an unknown-parent block that makes it heavier only once its status follows", async () => {
    const hub = newHub();
    // Same height (12), same total difficulty, different branches: neither is a sync candidate.
    const peer = await node(hub, "peer", [...suite.f.main.slice(0, 10), ...suite.f.alt.slice(0, 2)], false);
    const local = await suite.node(hub, "local", suite.f.main.slice(0, 12));
    const sync = local.startSync();
    local.startRelay();
    hub.connect("local", "peer");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(local.network.peers()[0]?.status.totalDifficulty).toBe(local.chain.head().totalDifficulty);
    expect(hub.requests).toEqual([]);

    // The peer "mines" block 13 on its branch; its gossip reaches us before any status.
    await peer.importBlocks([suite.f.alt[2]!]);
    expect(await local.network.deliver("block", "peer", suite.f.alt[2]!.encode())).toBe("ignore");
    await waitFor(() => local.chain.head().number === 13, "head 13");
    expect(local.headHex()).toBe(hex(suite.f.alt[2]!));
    await waitFor(() => sync.progress() === undefined, "idle");
  });

  it("publishes a block mined locally and announces the new head", async () => {
    const {local, peer} = await pair();
    await local.importBlocks([suite.f.main[10]!]);
    expect(local.network.publishedBlocks.map(hex)).toEqual([hex(suite.f.main[10]!)]);
    expect(local.network.announced.at(-1)).toMatchObject({bestNumber: 11, bestHash: suite.f.main[10]!.hash()});
    expect(local.network.announced.at(-1)?.totalDifficulty).toBe(local.chain.head().totalDifficulty);
    await waitFor(() => peer.chain.head().number === 11, "the peer at 11");
    expect(peer.network.peers().find((p) => p.id === "local")?.status.bestNumber).toBe(11);
  });

  it("admits a gossiped transaction without publishing it again, and publishes local ones", async () => {
    const {hub, local, peer} = await pair();
    const alice = cows[0]!;
    // Nonce 3: blocks 3, 6 and 9 of main hold alice's transfers 0–2.
    const gossiped = transfer(alice, 3n);
    expect(await local.network.deliver("transaction", "peer", gossiped.encode())).toBe("accept");
    expect(local.txpool.get(gossiped.hash())).toBeDefined();
    expect(local.network.reportsAbout("peer")).toEqual([PeerEvent.VALID_TRANSACTION]);
    expect(local.network.publishedTransactions).toEqual([]);
    expect(await local.network.deliver("transaction", "peer", gossiped.encode())).toBe("ignore");

    const submitted = transfer(cows[1]!, 0n);
    await local.txpool.add(submitted);
    expect(local.network.publishedTransactions.map((tx) => bytesToHex(tx.hash()))).toEqual([
      bytesToHex(submitted.hash()),
    ]);
    await waitFor(() => peer.txpool.get(submitted.hash()) !== undefined, "the peer's pool");
    expect(hub.verdicts.find((v) => v.node === "peer")?.verdict).toBe("accept");
    // The peer admitted it from gossip: no echo back.
    expect(peer.network.publishedTransactions).toEqual([]);
  });

  it("pushes its pending transactions to a peer that connects, which gossips them on to its own peers", async () => {
    const hub = newHub();
    const local = await node(hub, "local", suite.f.main.slice(0, 10));
    const peer = await node(hub, "peer", suite.f.main.slice(0, 10));
    const other = await node(hub, "other", suite.f.main.slice(0, 10));
    hub.connect("peer", "other");
    // Sent while the node has no peer: gossip reaches no one, the pool keeps it.
    const lonely = transfer(cows[1]!, 0n);
    await local.txpool.add(lonely);
    expect(local.network.publishedTransactions).toHaveLength(1);
    expect(local.network.pushedTransactions).toEqual([]);
    hub.connect("local", "peer");
    await waitFor(() => peer.txpool.get(lonely.hash()) !== undefined, "the peer's pool");
    expect(local.network.pushedTransactions.map(({peer, tx}) => [peer, bytesToHex(tx.hash())])).toEqual([
      ["peer", bytesToHex(lonely.hash())],
    ]);
    expect(peer.network.reportsAbout("local")).toEqual([PeerEvent.VALID_TRANSACTION]);
    // No gossip brought it to the peer: it publishes it for its other peers.
    await waitFor(() => other.txpool.get(lonely.hash()) !== undefined, "the other node's pool");
    expect(peer.network.publishedTransactions.map((tx) => bytesToHex(tx.hash()))).toEqual([bytesToHex(lonely.hash())]);
  });

  it("pushes a transaction straight to its peers when gossip reaches none of them yet", async () => {
    const {local, peer} = await pair();
    // The connection's push of the (empty) pool is over before the transaction comes.
    await new Promise((resolve) => setImmediate(resolve));
    local.network.gossipBlind.add("peer");
    const submitted = transfer(cows[1]!, 0n);
    await local.txpool.add(submitted);
    await waitFor(() => peer.txpool.get(submitted.hash()) !== undefined, "the peer's pool");
    expect(local.network.pushedTransactions.map(({peer}) => peer)).toEqual(["peer"]);
  });

  it("does not publish an impersonated transaction (a peer would recover another sender)", async () => {
    const {local} = await pair();
    const values = {
      nonce: 0n,
      gasPrice: 0n,
      gasLimit: 21_000n,
      value: 1n,
      data: new Uint8Array(0),
      to: cows[5]!.address,
    };
    const impersonated = Transaction.impersonate(values, cows[1]!.address, regtest.params.chainId);
    await local.txpool.add(impersonated);
    expect(local.txpool.get(impersonated.hash())).toBeDefined();
    expect(local.network.publishedTransactions).toEqual([]);
  });

  it("rejects an invalid transaction with INVALID_TRANSACTION and ignores one refused for our state", async () => {
    const {local} = await pair();
    const alice = cows[0]!;
    const intrinsicTooLow = transfer(alice, 3n, {gasLimit: 20_000n});
    expect(await local.network.deliver("transaction", "peer", intrinsicTooLow.encode())).toBe("reject");
    expect(local.network.reportsAbout("peer")).toEqual([PeerEvent.INVALID_TRANSACTION]);

    const nonceTooLow = transfer(alice, 0n);
    expect(await local.network.deliver("transaction", "peer", nonceTooLow.encode())).toBe("ignore");
    const underfunded = transfer(cows[2]!, 0n, {value: 10n ** 40n});
    expect(await local.network.deliver("transaction", "peer", underfunded.encode())).toBe("ignore");
    expect(local.network.reportsAbout("peer")).toEqual([PeerEvent.INVALID_TRANSACTION]);
    expect(local.txpool.status()).toEqual({pending: 0, queued: 0});
  });

  it("imports gossiped blocks that arrive together when their sender recovery fails (closed)", async () => {
    const hub = newHub();
    const store = new GatedStore();
    const local = suite.track(await TestNode.create(hub, "local", store));
    await local.importBlocks(suite.f.main.slice(0, 11));
    const recovery = new SenderRecovery();
    await recovery.close();
    local.startRelay({senderRecovery: recovery});
    store.hold();
    const first = local.network.deliver("block", "peer", suite.f.alt[0]!.encode());
    await waitFor(() => store.waiting === 1, "the first block's import in progress");
    const second = local.network.deliver("block", "peer", suite.f.main[11]!.encode());
    // The second block's recovery fails at once; it waits for the first block's import.
    await new Promise((resolve) => setTimeout(resolve, 20));
    store.release();
    expect(await Promise.all([first, second])).toEqual(["accept", "accept"]);
    expect(local.headHex()).toBe(hex(suite.f.main[11]!));
    expect(local.chain.head().number).toBe(12);
  });

  it("reports REPEATED_MESSAGE for a peer sending the same block more than 10 times", async () => {
    const {local} = await pair();
    const known = suite.f.main[5]!.encode();
    for (let i = 0; i < 12; i++) expect(await local.network.deliver("block", "peer", known)).toBe("ignore");
    expect(local.network.reportsAbout("peer")).toEqual([PeerEvent.REPEATED_MESSAGE, PeerEvent.REPEATED_MESSAGE]);
    for (let i = 0; i < 10; i++) await local.network.deliver("block", "other", known);
    expect(local.network.reportsAbout("other")).toEqual([]);
  });

  it("stops: gossip is ignored and nothing is published any more", async () => {
    const {local} = await pair();
    local.relay?.stop();
    expect(await local.network.deliver("block", "peer", suite.f.main[10]!.encode())).toBe("ignore");
    expect(local.chain.head().number).toBe(10);
    await local.importBlocks([suite.f.main[10]!]);
    await local.txpool.add(transfer(cows[1]!, 0n));
    expect(local.network.publishedBlocks).toEqual([]);
    expect(local.network.publishedTransactions).toEqual([]);
    expect(local.network.announced).toEqual([]);
  });
});
