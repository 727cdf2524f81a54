/**
 * A bare libp2p node that speaks xchain's framing by hand: it answers the status handshake with a
 * status of our test network (or the one given), and runs whatever the test registers on the other
 * protocols (never answer, answer garbage, answer too much). It also sends raw requests.
 */
import {noise} from "@chainsafe/libp2p-noise";
import {yamux} from "@chainsafe/libp2p-yamux";
import type {Libp2p, Stream} from "@libp2p/interface";
import {peerIdFromString} from "@libp2p/peer-id";
import {tcp} from "@libp2p/tcp";
import {lpStream} from "@libp2p/utils";
import {multiaddr} from "@multiformats/multiaddr";
import {createLibp2p} from "libp2p";
import {type ProtocolIds, protocolIds} from "../../src/protocols.ts";
import type {P2PChainView, PeerStatus} from "../../src/types.ts";
import {encodeStatus} from "../../src/wire/status.ts";
import {NETWORK_ID} from "./chain.ts";

const started: RawPeer[] = [];

/** Stops every raw peer started (afterEach). */
export async function stopRawPeers(): Promise<void> {
  await Promise.all(started.splice(0).map((p) => p.stop()));
}

export class RawPeer {
  readonly ids: ProtocolIds = protocolIds(NETWORK_ID);

  private constructor(readonly node: Libp2p) {}

  /** Starts a raw node whose status handler answers `status(chain)` (or the given status). */
  static async start(chain: P2PChainView, override: Partial<PeerStatus> = {}): Promise<RawPeer> {
    const node = await createLibp2p({
      addresses: {listen: ["/ip4/127.0.0.1/tcp/0"]},
      transports: [tcp()],
      connectionEncrypters: [noise()],
      streamMuxers: [yamux()],
    });
    const peer = new RawPeer(node);
    started.push(peer);
    const head = chain.head();
    const status: PeerStatus = {
      protocolVersion: 1,
      networkId: NETWORK_ID,
      genesisHash: chain.genesisHash,
      bestHash: head.hash,
      bestNumber: head.number,
      totalDifficulty: head.totalDifficulty,
      ...override,
    };
    await node.handle(peer.ids.status, async (stream) => {
      const lp = lpStream(stream);
      await lp.read();
      await lp.write(encodeStatus(status));
      await stream.close();
    });
    return peer;
  }

  get peerId(): string {
    return this.node.peerId.toString();
  }

  get address(): string {
    return `${this.node.getMultiaddrs()[0]?.toString()}`;
  }

  /** Registers a handler for a protocol (a request stream from the host under test). */
  async handle(protocol: string, handler: (stream: Stream) => Promise<void>): Promise<void> {
    await this.node.handle(protocol, (stream) => handler(stream));
  }

  async dial(address: string): Promise<void> {
    await this.node.dial(multiaddr(address));
  }

  /** Opens a stream to a peer on `protocol`. */
  async openRaw(peer: string, protocol: string): Promise<Stream> {
    return this.node.dialProtocol(peerIdFromString(peer), protocol);
  }

  async stop(): Promise<void> {
    await this.node.stop();
  }
}
