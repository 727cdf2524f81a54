// A hostile peer speaking xchain's protocols by hand against a real node that follows an honest
// miner: it claims a much heavier chain, then answers the sync's requests with garbage and
// oversized frames. It must end up punished and refused while the node keeps following the miner.
import {noise} from "@chainsafe/libp2p-noise";
import {yamux} from "@chainsafe/libp2p-yamux";
import type {Libp2p} from "@libp2p/interface";
import {tcp} from "@libp2p/tcp";
import {lpStream} from "@libp2p/utils";
import {multiaddr} from "@multiformats/multiaddr";
import {getChainspec} from "@xchain/chainspec";
import {protocolIds} from "@xchain/p2p";
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

/** A libp2p node that claims a far heavier chain and answers every request with `answer`. */
async function startHostile(genesisHash: Uint8Array, answer: (request: Uint8Array) => Uint8Array): Promise<Libp2p> {
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
    bestNumber: 1_000_000,
    totalDifficulty: 10n ** 30n,
  });
  await node.handle(ids.status, async (stream) => {
    const lp = lpStream(stream);
    await lp.read();
    await lp.write(status);
    await stream.close();
  });
  for (const protocol of [ids.headers, ids.bodies]) {
    await node.handle(protocol, async (stream) => {
      const lp = lpStream(stream, {maxDataLength: 64 * 1024 * 1024});
      const request = (await lp.read()).subarray();
      await lp.write(answer(request));
      await stream.close();
    });
  }
  return node;
}

describe("a hostile peer", () => {
  it("that answers the sync with garbage is punished and refused; the node keeps following the miner", async () => {
    const miner = await startNode(["--miner.blockTimeMs", "200"]);
    nodes.push(miner);
    const follower = await startNode(["--miner.enabled", "false", "--p2p.bootnodes", miner.p2pAddresses[0] as string]);
    nodes.push(follower);
    const genesis = await rpc<{hash: string}>(follower.httpUrl, "eth_getBlockByNumber", ["0x0", false]);
    hostile = await startHostile(hexToBytes(genesis.hash), () => Uint8Array.of(0xc5, 0xff, 0x00, 0x13));
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
    const summary = await rpc<{invalidMessages: number; badReputationCount: number}>(
      follower.httpUrl,
      "sco_reputationSummary",
    );
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
});
