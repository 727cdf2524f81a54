// A hostile peer speaking xchain's protocols by hand against a real node that follows an honest
// miner: it claims a much heavier chain, then answers the sync's requests with garbage, frames over
// the size cap, or headers whose proof of work is broken; or it asks for a million headers. It must
// end up punished and refused while the node keeps following the miner.
import {noise} from "@chainsafe/libp2p-noise";
import {yamux} from "@chainsafe/libp2p-yamux";
import type {Libp2p} from "@libp2p/interface";
import {peerIdFromString} from "@libp2p/peer-id";
import {tcp} from "@libp2p/tcp";
import {lpStream} from "@libp2p/utils";
import {multiaddr} from "@multiformats/multiaddr";
import {getChainspec} from "@xchain/chainspec";
import {protocolIds} from "@xchain/p2p";
import {BlockHeader, decodeRlpList, encodeRlp, type RlpItem} from "@xchain/primitives";
import {hexToBytes} from "@xchain/utils";
import {createLibp2p} from "libp2p";
import {afterEach, describe, expect, it, vi} from "vitest";
import {encodeStatus} from "../../../packages/p2p/src/wire/status.ts";
import {rpc} from "../support/jsonRpc.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

const regtest = getChainspec("regtest");
const ids = protocolIds(regtest.params.p2pNetworkId);
const nodes: RunningNode[] = [];
let hostile: Libp2p | undefined;
afterEach(async () => {
  await hostile?.stop();
  hostile = undefined;
  await Promise.all(nodes.splice(0).map((n) => n.stop()));
});

/** How the hostile peer answers a request of the node under test (it may ask the node itself first). */
type Answer = (request: Uint8Array, node: Libp2p, target: string) => Promise<Uint8Array>;

/** A far heavier chain than the node's: the node syncs from the hostile peer. */
const HEAVIER = {bestNumber: 1_000_000, totalDifficulty: 10n ** 30n};

/** A libp2p node that claims the chain `claim` and answers every request with `answer`. */
async function startHostile(
  genesisHash: Uint8Array,
  answer: Answer,
  target: () => string,
  claim = HEAVIER,
): Promise<Libp2p> {
  const node = await createLibp2p({
    addresses: {listen: ["/ip4/127.0.0.1/tcp/0"]},
    transports: [tcp()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
  });
  const status = encodeStatus({
    protocolVersion: 1,
    networkId: regtest.params.p2pNetworkId,
    genesisHash,
    bestHash: new Uint8Array(32).fill(0xee),
    ...claim,
  });
  await node.handle(ids.status, async (stream) => {
    const lp = lpStream(stream);
    // The node may hang up first (a punished peer): the hostile side just stops.
    await lp
      .read()
      .then(() => lp.write(status))
      .then(() => stream.close())
      .catch(() => stream.abort(new Error("closed")));
  });
  for (const protocol of [ids.headers, ids.bodies]) {
    await node.handle(protocol, async (stream) => {
      const lp = lpStream(stream, {maxDataLength: 64 * 1024 * 1024});
      try {
        const request = (await lp.read()).subarray();
        await lp.write(await answer(request, node, target()));
        await stream.close();
      } catch {
        stream.abort(new Error("closed"));
      }
    });
  }
  return node;
}

/** Garbage: not even RLP of the right shape. */
const garbage: Answer = async () => Uint8Array.of(0xc5, 0xff, 0x00, 0x13);

/** A frame over the 10 MiB cap. */
const oversized: Answer = async () => new Uint8Array(11 * 1024 * 1024);

/**
 * Real headers, fetched from the node under test itself, each (but genesis) with one byte of its
 * Bitcoin merged-mining header flipped: valid encoding, new hashes, broken proof of work.
 */
const forgedHeaders: Answer = async (request, node, target) => {
  const [selector] = decodeRlpList(request, "request");
  if (!(selector instanceof Uint8Array) || selector.length !== 0) return garbage(request, node, target);
  const stream = await node.dialProtocol(peerIdFromString(target), ids.headers);
  const lp = lpStream(stream, {maxDataLength: 16 * 1024 * 1024});
  await lp.write(request);
  const real = decodeRlpList((await lp.read()).subarray(), "headers");
  await stream.close();
  // Each forged header links to the forged one before it, so only the proof of work is wrong.
  let parentHash: Uint8Array | undefined;
  const forged = real.map((header) => {
    const fields = [...(header as RlpItem[])];
    if ((fields[8] as Uint8Array).length === 0) {
      parentHash = BlockHeader.fromRlpItems(fields, regtest).hash();
      return fields;
    }
    if (parentHash) fields[0] = parentHash;
    // The Bitcoin header (third from last): part of the block hash (docs/protocol/header.md §3), and its proof of work.
    const bitcoinHeader = Uint8Array.from(fields[fields.length - 3] as Uint8Array);
    bitcoinHeader[40] = (bitcoinHeader[40] as number) ^ 0xff;
    fields[fields.length - 3] = bitcoinHeader;
    parentHash = BlockHeader.fromRlpItems(fields, regtest).hash();
    return fields;
  });
  return encodeRlp(forged);
};

describe("a hostile peer", () => {
  it.each([
    ["garbage", garbage],
    ["frames over the size cap", oversized],
    ["headers with a broken proof of work", forgedHeaders],
  ])("answering the sync with %s is punished and refused; the node keeps following the miner", async (_, answer) => {
    const miner = await startNode(["--miner.blockTimeMs", "200"]);
    nodes.push(miner);
    const follower = await startNode(["--miner.enabled", "false", "--p2p.bootnodes", miner.p2pAddresses[0] as string]);
    nodes.push(follower);
    await vi.waitFor(async () => expect(Number(await rpc(follower.httpUrl, "eth_blockNumber"))).toBeGreaterThan(3), {
      timeout: 20_000,
    });
    const genesis = await rpc<{hash: string}>(follower.httpUrl, "eth_getBlockByNumber", ["0x0", false]);
    const followerId = (follower.p2pAddresses[0] as string).split("/p2p/")[1] as string;
    hostile = await startHostile(hexToBytes(genesis.hash), answer, () => followerId);
    const hostileId = hostile.peerId.toString();
    await hostile.dial(multiaddr(follower.p2pAddresses[0] as string));

    await vi.waitFor(
      async () => {
        const peers = await rpc<{id: string; type: string; goodReputation: boolean; punishedUntil: number}[]>(
          follower.httpUrl,
          "sco_peerList",
        );
        const entry = peers.find((p) => p.type === "node" && p.id === hostileId);
        expect(entry?.goodReputation).toBe(false);
        expect(entry?.punishedUntil).toBeGreaterThan(Date.now());
      },
      {timeout: 20_000, interval: 200},
    );
    // Hung up on, and refused when it comes back.
    await vi.waitFor(() => expect(hostile?.getConnections().length).toBe(0), {timeout: 10_000});
    await hostile
      .dial(multiaddr(follower.p2pAddresses[0] as string))
      .then(() => undefined)
      .catch(() => undefined);
    await vi.waitFor(() => expect(hostile?.getConnections().length).toBe(0), {timeout: 10_000});
    const summary = await rpc<{badReputationCount: number}>(follower.httpUrl, "sco_reputationSummary");
    expect(summary.badReputationCount).toBeGreaterThanOrEqual(1);

    // The honest miner is still followed.
    const target = Number(await rpc<string>(miner.httpUrl, "eth_blockNumber")) + 3;
    await vi.waitFor(
      async () => {
        const [a, b] = await Promise.all(
          [miner, follower].map((n) =>
            rpc<{hash: string; number: string}>(n.httpUrl, "eth_getBlockByNumber", ["latest", false]),
          ),
        );
        expect(Number(b?.number)).toBeGreaterThanOrEqual(target);
        expect(b?.hash).toBe(a?.hash);
      },
      {timeout: 20_000, interval: 200},
    );
  });

  it("asking for a million headers is punished", async () => {
    const node = await startNode(["--miner.blockTimeMs", "0"]);
    nodes.push(node);
    const genesis = await rpc<{hash: string}>(node.httpUrl, "eth_getBlockByNumber", ["0x0", false]);
    const nodeId = (node.p2pAddresses[0] as string).split("/p2p/")[1] as string;
    // A lighter chain than the node's: the node has no reason to ask it anything.
    hostile = await startHostile(hexToBytes(genesis.hash), garbage, () => nodeId, {bestNumber: 0, totalDifficulty: 1n});
    await hostile.dial(multiaddr(node.p2pAddresses[0] as string));
    const hostileId = hostile.peerId.toString();
    await vi.waitFor(
      async () => {
        const peers = await rpc<{id: string}[]>(node.httpUrl, "sco_peerList");
        expect(peers.some((p) => p.id === hostileId)).toBe(true);
      },
      {timeout: 10_000},
    );
    const stream = await hostile.dialProtocol(peerIdFromString(nodeId), ids.headers);
    // [by number, from 0, 1,000,000 headers]: the node must refuse it, not read a million headers.
    // The node may hang up while the frame is still being written: that is its answer.
    await lpStream(stream)
      .write(encodeRlp([new Uint8Array(0), new Uint8Array(0), Uint8Array.of(0x0f, 0x42, 0x40)]))
      .catch(() => undefined);
    await vi.waitFor(
      async () => {
        const peers = await rpc<{id: string; type: string; invalidMessages: number; goodReputation: boolean}[]>(
          node.httpUrl,
          "sco_peerList",
        );
        const entry = peers.find((p) => p.type === "node" && p.id === hostileId);
        expect(entry?.invalidMessages).toBeGreaterThanOrEqual(1);
        expect(entry?.goodReputation).toBe(false);
      },
      {timeout: 10_000},
    );
  });
});
