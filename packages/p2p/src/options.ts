/** The p2p package's options and their defaults: the host's (`[p2p]` of node.config.toml) and peer scoring's. */
import {DEFAULT_ADDRESS_PUNISHMENT, DEFAULT_NODE_PUNISHMENT, type PunishmentParameters} from "./scoring/punishment.ts";

/**
 * Most bootnodes (`p2p.bootnodes`): each is kept connected and let in past `maxPeers`, so a list
 * longer than a few dozen is a mistake (docs/p2p.md).
 */
export const MAX_BOOTNODES = 64;
/**
 * Longest bootnode multiaddr, in characters: a DNS name (253) with a port and a peer id fits; a
 * longer string is refused before it is parsed (decoding a peer id costs the square of its length).
 */
export const MAX_BOOTNODE_LENGTH = 512;

/** The `[p2p]` section of node.config.toml (each key also a `--p2p.<key>` flag). */
export interface P2POptions {
  enabled: boolean;
  /** Listen address (default 0.0.0.0; tests use 127.0.0.1). */
  host: string;
  /** TCP port (network default from docs/protocol/networks.md §1; 0 = any free port). */
  port: number;
  /** Multiaddrs with `/p2p/<peer id>`, dialled at start and redialled when lost. */
  bootnodes: string[];
  /** Connections beyond this are refused (inbound) or not made (outbound). */
  maxPeers: number;
  /** mDNS discovery on the local network. */
  mdns: boolean;
  /** A request without an answer within this time fails (and costs the peer). */
  requestTimeoutMs: number;
  /** An inbound connection not through its Noise and Yamux handshakes within this time is dropped. */
  handshakeTimeoutMs: number;
  /** Inbound handshakes pending at once from one address (docs/p2p.md, "Inbound admission"). */
  maxPendingPerAddress: number;
  /** Inbound handshakes pending at once from one /24 (IPv4) or /48 (IPv6) network. */
  maxPendingPerNetwork: number;
  /** Inbound handshakes pending at once in all. */
  maxPendingHandshakes: number;
}

/** The defaults of a network whose p2p port is `port` (docs/protocol/networks.md §1: 5050, 50505, 50501). */
export function defaultP2POptions(port: number): P2POptions {
  return {
    enabled: true,
    host: "0.0.0.0",
    port,
    bootnodes: [],
    maxPeers: 30,
    mdns: false,
    requestTimeoutMs: 10_000,
    handshakeTimeoutMs: 3_000,
    maxPendingPerAddress: 2,
    maxPendingPerNetwork: 8,
    maxPendingHandshakes: 64,
  };
}

/**
 * What `PeerScoringManager` can be told (rskj `scoring.*` and `peer.banned*`); start from
 * `defaultPeerScoringOptions`.
 */
export interface PeerScoringOptions {
  /** rskj `scoring.punishmentEnabled`. */
  punishmentEnabled: boolean;
  /** rskj `scoring.nodes.*`, in milliseconds. */
  nodes: PunishmentParameters;
  /** rskj `scoring.addresses.*`, in milliseconds. */
  addresses: PunishmentParameters;
  /** Most node-id entries kept. */
  maxNodes: number;
  /** Most address entries kept. */
  maxAddresses: number;
  /** Addresses and CIDR blocks banned from the start (rskj `peer.bannedPeerIPs`); invalid ones throw. */
  bannedAddresses: readonly string[];
  /** Peer ids banned for good (rskj `peer.bannedPeerIDs`). */
  bannedPeerIds: readonly string[];
}

/** Default cap of node-id entries and of address entries. */
export const DEFAULT_MAX_SCORED_ENTRIES = 10_000;

/** rskj's reference.conf punishments, punishment enabled, 10,000 entries of each kind, nothing banned. */
export const defaultPeerScoringOptions: PeerScoringOptions = {
  punishmentEnabled: true,
  nodes: DEFAULT_NODE_PUNISHMENT,
  addresses: DEFAULT_ADDRESS_PUNISHMENT,
  maxNodes: DEFAULT_MAX_SCORED_ENTRIES,
  maxAddresses: DEFAULT_MAX_SCORED_ENTRIES,
  bannedAddresses: [],
  bannedPeerIds: [],
};
