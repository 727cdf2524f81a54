/**
 * The libp2p node: TCP, Noise, Yamux, identify, ping, gossipsub and optional mDNS, with xchain's
 * gater (the bootnodes are dialled by bootnodes.ts). It is created stopped, so that the protocol handlers are registered
 * before the first connection.
 */
import {noise} from "@chainsafe/libp2p-noise";
import {yamux} from "@chainsafe/libp2p-yamux";
import {gossipsub} from "@libp2p/gossipsub";
import {identify} from "@libp2p/identify";
import type {ConnectionGater} from "@libp2p/interface";
import {ping} from "@libp2p/ping";
import {tcp} from "@libp2p/tcp";
import {createLibp2p} from "libp2p";
import {ipMultiaddr, listenAddress} from "./address.ts";
import type {Host, HostServices} from "./context.ts";
import {gossipMessageId} from "./gossip.ts";
import type {P2POptions} from "./options.ts";
import type {ProtocolIds} from "./protocols.ts";
import {MAX_MESSAGE_BYTES, type P2PModules} from "./types.ts";

// Room for gossipsub's envelope (topic, ids, control messages) around one block.
const GOSSIP_RPC_OVERHEAD = 64 * 1024;

export async function createHost(
  options: P2POptions,
  deps: P2PModules,
  ids: ProtocolIds,
  connectionGater: ConnectionGater,
  trustedAddresses: ReadonlySet<string>,
): Promise<Host> {
  // mDNS (off by default) and its multicast-DNS stack load only when it is on.
  const peerDiscovery = options.mdns ? [(await import("@libp2p/mdns")).mdns()] : [];
  return createLibp2p<HostServices>({
    start: false,
    privateKey: deps.privateKey,
    addresses: {listen: [listenAddress(options.host, options.port)]},
    transports: [tcp()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    connectionGater,
    connectionManager: {
      // Our own limit is on peers (the gater); this backstop allows a second connection per peer.
      maxConnections: Math.max(1, options.maxPeers) * 2 + 2,
      // The gater's InboundAdmission is the real limit (per address, per network, in all, with
      // eviction); libp2p's counter also holds refused and evicted handshakes until they unwind.
      maxIncomingPendingConnections: options.maxPendingHandshakes * 2,
      // Bootnodes skip libp2p's pending limit and per-address rate limit.
      allow: [...trustedAddresses].map(ipMultiaddr),
      inboundUpgradeTimeout: options.handshakeTimeoutMs,
    },
    peerDiscovery,
    services: {
      identify: identify(),
      ping: ping(),
      pubsub: gossipsub({
        globalSignaturePolicy: "StrictNoSign",
        msgIdFn: gossipMessageId,
        allowPublishToZeroTopicPeers: true,
        ignoreDuplicatePublishError: true,
        allowedTopics: [ids.blocksTopic, ids.transactionsTopic],
        maxInboundDataLength: MAX_MESSAGE_BYTES + GOSSIP_RPC_OVERHEAD,
        fallbackToFloodsub: false,
        emitSelf: false,
      }),
    },
  });
}
