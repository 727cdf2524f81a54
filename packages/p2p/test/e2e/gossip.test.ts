/**
 * Block and transaction gossip through a line of three real hosts A – B – C: what B's handler
 * accepts reaches C through B; what it rejects, or cannot decode, stops at B.
 */
import type {Block, Transaction} from "@xchain/primitives";
import {bytesToHex} from "@xchain/utils";
import {afterEach, describe, expect, it} from "vitest";
import type {Host} from "../../src/context.ts";
import type {P2PNetwork} from "../../src/network.ts";
import {type GossipMessage, type GossipVerdict, PeerEvent} from "../../src/types.ts";
import {buildBlocks, transfer} from "../support/chain.ts";
import {connect, sleep, startHost, stopAll, type TestHost, waitFor} from "../support/hosts.ts";

afterEach(stopAll);

const BLOCKS = "/xchain/7771/blocks/1";
const TXS = "/xchain/7771/txs/1";

function hostOf(network: P2PNetwork): Host {
  return (network as unknown as {host: Host}).host;
}

/** A – B – C, with B meshed to C and A knowing B's subscriptions. */
async function line(): Promise<[TestHost, TestHost, TestHost]> {
  const [a, b, c] = [await startHost(), await startHost(), await startHost()];
  await connect(a, b);
  await connect(c, b);
  const pubsubA = hostOf(a.network).services.pubsub;
  const pubsubB = hostOf(b.network).services.pubsub as unknown as {getMeshPeers(topic: string): string[]};
  await waitFor(
    () => [BLOCKS, TXS].every((t) => pubsubA.getSubscribers(t).some((p) => p.toString() === b.network.peerId)),
    "A to see B's subscriptions",
  );
  await waitFor(
    () => [BLOCKS, TXS].every((t) => pubsubB.getMeshPeers(t).includes(c.network.peerId)),
    "B to mesh with C",
  );
  return [a, b, c];
}

/** Records what a host's handlers get, answering `verdict(value)`. */
function recorder<T>(network: P2PNetwork, kind: "block" | "tx", verdict: (value: T) => GossipVerdict) {
  const seen: GossipMessage<T>[] = [];
  const handler = async (message: GossipMessage<T>) => {
    seen.push(message);
    return verdict(message.value);
  };
  if (kind === "block") network.onBlock(handler as unknown as (m: GossipMessage<Block>) => Promise<GossipVerdict>);
  else network.onTransaction(handler as unknown as (m: GossipMessage<Transaction>) => Promise<GossipVerdict>);
  return seen;
}

describe("gossip", () => {
  it("forwards a block and a transaction that B accepts to C, and B learns A's new best block", async () => {
    const [a, b, c] = await line();
    const {blocks} = await buildBlocks(1);
    const block = blocks[0] as Block;
    const tx = transfer(5n);
    const atB = recorder<Block>(b.network, "block", () => "accept");
    const atC = recorder<Block>(c.network, "block", () => "accept");
    const txAtB = recorder<Transaction>(b.network, "tx", () => "accept");
    const txAtC = recorder<Transaction>(c.network, "tx", () => "accept");

    await a.network.publishBlock(block);
    await a.network.publishTransaction(tx);
    await waitFor(() => atC.length === 1 && txAtC.length === 1, "C to get the block and the transaction");
    expect(atB.map((m) => m.from)).toEqual([a.network.peerId]);
    expect(atC.map((m) => m.from)).toEqual([b.network.peerId]);
    expect(bytesToHex(atC[0]!.value.hash())).toBe(bytesToHex(block.hash()));
    expect(txAtB.map((m) => m.from)).toEqual([a.network.peerId]);
    expect(bytesToHex(txAtC[0]!.value.hash())).toBe(bytesToHex(tx.hash()));
    // The block extends A's announced best block (genesis): B now sees A at height 1.
    const aOnB = b.network.peers().find((p) => p.id === a.network.peerId);
    expect(aOnB?.status.bestNumber).toBe(1);
    expect(aOnB?.status.totalDifficulty).toBe(a.chain.head().totalDifficulty + block.header.difficulty);
    // Published again (by anyone): gossipsub's seen cache drops it.
    await b.network.publishBlock(block);
    await sleep(300);
    expect(atC).toHaveLength(1);
  });

  it("does not forward what B rejects or ignores, nor what does not decode (INVALID_MESSAGE)", async () => {
    const [a, b, c] = await line();
    const {blocks} = await buildBlocks(3);
    const [rejected, ignored, accepted] = blocks as [Block, Block, Block];
    const verdicts = new Map<string, GossipVerdict>([
      [bytesToHex(rejected.hash()), "reject"],
      [bytesToHex(ignored.hash()), "ignore"],
      [bytesToHex(accepted.hash()), "accept"],
    ]);
    const atB = recorder<Block>(b.network, "block", (block) => verdicts.get(bytesToHex(block.hash())) ?? "reject");
    const atC = recorder<Block>(c.network, "block", () => "accept");
    const txAtB = recorder<Transaction>(b.network, "tx", () => "accept");
    const txAtC = recorder<Transaction>(c.network, "tx", () => "accept");

    await a.network.publishBlock(rejected);
    await a.network.publishBlock(ignored);
    await hostOf(a.network).services.pubsub.publish(TXS, Uint8Array.of(0xc3, 1, 2, 3));
    await hostOf(a.network).services.pubsub.publish(BLOCKS, Uint8Array.of(0xde, 0xad));
    await waitFor(() => atB.length === 2, "B to judge two blocks");
    await waitFor(
      () => b.scoring.of(a.network.peerId).filter((e) => e === PeerEvent.INVALID_MESSAGE).length === 2,
      "B to report the garbage",
    );
    // A heartbeat (IHAVE gossip) later, then a block B accepts: C gets that one only.
    await sleep(1200);
    await a.network.publishBlock(accepted);
    await waitFor(() => atC.length === 1, "C to get the accepted block");
    await sleep(200);
    expect(atC.map((m) => bytesToHex(m.value.hash()))).toEqual([bytesToHex(accepted.hash())]);
    expect(txAtB).toEqual([]);
    expect(txAtC).toEqual([]);
    expect(c.scoring.of(b.network.peerId)).not.toContain(PeerEvent.INVALID_MESSAGE);
  });

  it("ignores gossip when no handler is installed (nothing forwarded)", async () => {
    const [a, , c] = await line();
    const atC = recorder<Transaction>(c.network, "tx", () => "accept");
    await a.network.publishTransaction(transfer(1n));
    await sleep(1200);
    expect(atC).toEqual([]);
  });
});
