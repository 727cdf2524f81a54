/** The `[p2p]` and `[sync]` tables: `P2POptions` of @xchain/p2p and `SyncOptions` of @xchain/sync. */
import {MAX_BOOTNODE_LENGTH, MAX_BOOTNODES} from "@xchain/p2p/options";
import type {ConfigKey} from "../configKey.ts";
import type {ValueKind} from "../values.ts";

const COUNT = (max: number): ValueKind => ({type: "integer", min: 1, max});

/** The libp2p host and the sync it feeds. */
export const p2pKeys: readonly ConfigKey[] = [
  {
    key: "p2p.enabled",
    kind: {type: "boolean"},
    description: "join the network: peers, block and transaction gossip, sync",
  },
  {
    key: "p2p.host",
    kind: {type: "string"},
    placeholder: "host",
    description: "interface the p2p listener binds (127.0.0.1 keeps the node off the network)",
  },
  {
    key: "p2p.port",
    kind: {type: "integer", min: 0, max: 65535},
    placeholder: "port",
    description: "TCP port of the p2p listener (0 picks a free one)",
  },
  {
    key: "p2p.bootnodes",
    kind: {type: "strings", maxItems: MAX_BOOTNODES, maxLength: MAX_BOOTNODE_LENGTH},
    placeholder: "multiaddrs",
    description: `peers dialled at start and redialled when lost: at most ${MAX_BOOTNODES} multiaddrs ending in /p2p/<peer id> (comma-separated as a flag)`,
  },
  {key: "p2p.maxPeers", kind: COUNT(10_000), description: "most connected peers; further connections are refused"},
  {key: "p2p.mdns", kind: {type: "boolean"}, description: "find peers on the local network with mDNS"},
  {
    key: "p2p.requestTimeoutMs",
    kind: COUNT(10 * 60 * 1000),
    placeholder: "ms",
    description: "a request to a peer without an answer within this time fails and costs the peer",
  },
  {
    key: "p2p.handshakeTimeoutMs",
    kind: COUNT(10 * 60 * 1000),
    placeholder: "ms",
    description: "an inbound connection not through its Noise and Yamux handshakes within this time is dropped",
  },
  {
    key: "p2p.maxPendingPerAddress",
    kind: COUNT(10_000),
    description: "inbound handshakes pending at once from one address; more are refused before any crypto",
  },
  {
    key: "p2p.maxPendingPerNetwork",
    kind: COUNT(10_000),
    description:
      "inbound handshakes pending at once from one /24 (IPv4) or /48 (IPv6); when full, a new address takes the oldest one's slot",
  },
  {
    key: "p2p.maxPendingHandshakes",
    kind: COUNT(10_000),
    description:
      "inbound handshakes pending at once in all (bootnodes aside); when full, a new address takes the busiest network's oldest slot",
  },
  {key: "sync.headersPerRequest", kind: COUNT(192), description: "headers asked of a peer per request (at most 192)"},
  {
    key: "sync.bodiesPerRequest",
    kind: COUNT(128),
    description: "block bodies asked of a peer per request (at most 128)",
  },
  {
    key: "sync.parallelBodyRequests",
    kind: COUNT(64),
    description: "body requests in flight at once, spread over the peers",
  },
  {
    key: "sync.minBlocksBehind",
    kind: COUNT(1_000_000),
    placeholder: "blocks",
    description:
      "sync starts when a heavier peer is at least this many blocks ahead (closer gaps are left to block gossip)",
  },
];
