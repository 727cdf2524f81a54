/**
 * `P2PNetwork.queuedMessages` over real hosts: gossip held while the node's handler has not given
 * its verdict, and requests held while their response is not written, each counted until handled.
 */
import type {Block} from "@xchain/primitives";
import {afterEach, describe, expect, it} from "vitest";
import type {Host} from "../../src/context.ts";
import type {P2PNetwork} from "../../src/network.ts";
import type {GossipVerdict, P2PChainView} from "../../src/types.ts";
import {encodeBody} from "../../src/wire/bodies.ts";
import {buildBlocks, openChain, transfer} from "../support/chain.ts";
import {connect, startHost, stopAll, waitFor} from "../support/hosts.ts";

afterEach(stopAll);

const TXS = "/xchain/7771/txs/1";

function hostOf(network: P2PNetwork): Host {
  return (network as unknown as {host: Host}).host;
}

/** A promise and the function that settles it. */
function gate<T>(): {promise: Promise<T>; open(value: T): void} {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return {promise, open};
}

describe("queued messages", () => {
  it("counts gossip waiting for the handler's verdict, then nothing once it answered", async () => {
    const [a, b] = [await startHost(), await startHost()];
    await connect(a, b);
    const pubsubA = hostOf(a.network).services.pubsub;
    await waitFor(
      () => pubsubA.getSubscribers(TXS).some((p) => p.toString() === b.network.peerId),
      "A to see B's subscriptions",
    );
    const verdict = gate<GossipVerdict>();
    let received = 0;
    b.network.onTransaction(async () => {
      received++;
      return verdict.promise;
    });
    expect(b.network.queuedMessages()).toBe(0);

    for (const nonce of [0n, 1n, 2n]) await a.network.publishTransaction(transfer(nonce));
    await waitFor(() => received === 3, "B to receive the three transactions");
    expect(b.network.queuedMessages()).toBe(3);
    expect(a.network.queuedMessages()).toBe(0);

    verdict.open("accept");
    await waitFor(() => b.network.queuedMessages() === 0, "the queue to empty");
  });

  it("counts a request until its response is written", async () => {
    const {blocks} = await buildBlocks(1);
    const block = blocks[0] as Block;
    const chain = await openChain();
    const read = gate<void>();
    let asked = 0;
    // Serves the block only once the test lets it.
    const slowChain: P2PChainView = {
      genesisHash: chain.genesisHash,
      head: () => chain.head(),
      getHeader: (h) => chain.getHeader(h),
      getHeaderByNumber: (n) => chain.getHeaderByNumber(n),
      getBodyEncoding: async () => {
        asked++;
        await read.promise;
        return encodeBody(block);
      },
    };
    const server = await startHost({chain: slowChain});
    const client = await startHost();
    await connect(client, server);

    const bodies = client.network.getBodies(server.network.peerId, [block.hash()]);
    await waitFor(() => asked === 1, "the server to read the request");
    expect(server.network.queuedMessages()).toBe(1);

    read.open();
    expect(await bodies).toHaveLength(1);
    await waitFor(() => server.network.queuedMessages() === 0, "the queue to empty");
  });
});
