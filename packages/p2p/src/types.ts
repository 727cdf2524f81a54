/**
 * The contract of the p2p package: a libp2p host speaking xchain's protocols
 * (docs/p2p.md), the peers it is connected to, and their reputation. Sync and the node's relay code
 * are written against `PeerNetwork`; `P2PNetwork` implements it over libp2p 3.
 */
import type {PrivateKey} from "@libp2p/interface";
import type {Block, BlockDecodeOptions, BlockHeader, Transaction} from "@xchain/primitives";
import type {IpAddressOrRange, Logger} from "@xchain/utils";

/** A peer's libp2p peer id, in its string form (base58btc, "16U…"/"12D3…"). */
export type PeerId = string;

/** The status handshake (protocol `/xchain/<networkId>/status/1`), sent by both sides on connect. */
export interface PeerStatus {
  /** Version of xchain's protocol suite; a mismatch ends the connection. */
  protocolVersion: number;
  /** The network's p2p network id (docs/protocol/networks.md §1: 775, 8100, 7771; custom networks choose theirs). */
  networkId: number;
  genesisHash: Uint8Array;
  bestHash: Uint8Array;
  bestNumber: number;
  totalDifficulty: bigint;
}

/** A block's body as served by `/bodies/1`: its transactions and its uncles (full headers). */
export interface BlockBody {
  transactions: Transaction[];
  uncles: BlockHeader[];
}

/** A connected peer that completed the status handshake. */
export interface PeerInfo {
  id: PeerId;
  /** Remote multiaddr of the connection (e.g. `/ip4/127.0.0.1/tcp/50501`). */
  remoteAddress: string;
  /** The last status it sent (updated by its status messages and its block announcements). */
  status: PeerStatus;
  /** true when it dialed us. */
  inbound: boolean;
}

/**
 * What a peer did wrong or right, reported by whoever noticed (the host for malformed or oversized
 * messages and timeouts, sync for invalid headers and blocks, the relay for invalid transactions).
 * Each maps to one of rskj's `EventType`s (docs/protocol/peer-scoring.md, `co/rsk/scoring/EventType.java`).
 */
export enum PeerEvent {
  SUCCESSFUL_HANDSHAKE = "SUCCESSFUL_HANDSHAKE",
  FAILED_HANDSHAKE = "FAILED_HANDSHAKE",
  INVALID_NETWORK = "INVALID_NETWORK",
  INVALID_HEADER = "INVALID_HEADER",
  VALID_BLOCK = "VALID_BLOCK",
  INVALID_BLOCK = "INVALID_BLOCK",
  VALID_TRANSACTION = "VALID_TRANSACTION",
  INVALID_TRANSACTION = "INVALID_TRANSACTION",
  /** Undecodable, oversized, or breaking the protocol's caps. */
  INVALID_MESSAGE = "INVALID_MESSAGE",
  /** The same block or transaction again and again beyond what gossip explains. */
  REPEATED_MESSAGE = "REPEATED_MESSAGE",
  /** No answer within the request timeout. */
  TIMEOUT_MESSAGE = "TIMEOUT_MESSAGE",
  /** An answer that does not fit the request (e.g. headers that were not asked for). */
  UNEXPECTED_MESSAGE = "UNEXPECTED_MESSAGE",
}

/** Peer reputation and bans (docs/protocol/peer-scoring.md); the `sco_*` RPC methods read and drive it. */
export interface PeerScoring {
  /** Records an event; a peer whose reputation turns bad is disconnected and banned for a growing time. */
  record(peer: PeerId, address: string | undefined, event: PeerEvent): void;
  /** Whether a peer id or an IP address is currently banned (inbound connections are refused, no dials). */
  isBanned(peer: PeerId | undefined, address: string | undefined): boolean;
  /** `sco_banAddress`: bans an IPv4/IPv6 address or CIDR block. */
  banAddress(target: IpAddressOrRange): void;
  /** `sco_unbanAddress`: lifts the ban of the same address or block, in any spelling. */
  unbanAddress(target: IpAddressOrRange): void;
  bannedAddresses(): string[];
  /**
   * `sco_peerList` entries (docs/protocol/peer-scoring.md field names), one per peer id and per address with
   * events.
   */
  peerList(): PeerScoringInfo[];
  /** `sco_reputationSummary`. */
  reputationSummary(): ReputationSummary;
  /** `sco_clearPeerScoring(ipOrNodeId)`: forgets that peer or address. */
  clear(peerOrAddress: string): void;
}

/** One entry of `sco_peerList` (docs/protocol/peer-scoring.md, rskj `PeerScoringInformation`). */
export interface PeerScoringInfo {
  id: string;
  /** "node" (a peer id) or "address" (an IP). */
  type: "node" | "address";
  goodReputation: boolean;
  successfulHandshakes: number;
  failedHandshakes: number;
  invalidNetworks: number;
  repeatedMessages: number;
  validBlocks: number;
  validTransactions: number;
  invalidBlocks: number;
  invalidTransactions: number;
  invalidMessages: number;
  timeoutMessages: number;
  unexpectedMessages: number;
  invalidHeader: number;
  score: number;
  punishments: number;
  /** Epoch milliseconds; 0 when not punished. */
  punishedUntil: number;
}

/** `sco_reputationSummary` (docs/protocol/peer-scoring.md). */
export interface ReputationSummary {
  count: number;
  successfulHandshakes: number;
  failedHandshakes: number;
  invalidHeader: number;
  validBlocks: number;
  invalidBlocks: number;
  validTransactions: number;
  invalidTransactions: number;
  invalidNetworks: number;
  invalidMessages: number;
  repeatedMessages: number;
  timeoutMessages: number;
  unexpectedMessages: number;
  peersTotalScore: number;
  punishments: number;
  goodReputationCount: number;
  badReputationCount: number;
}

/** A gossiped block or transaction, decoded; the handler decides whether gossip forwards it. */
export interface GossipMessage<T> {
  from: PeerId;
  value: T;
}

/**
 * What a gossip handler answers: ACCEPT forwards the message to other peers, IGNORE drops it
 * silently (e.g. already known), REJECT drops it and costs the sender (gossipsub's validation).
 */
export type GossipVerdict = "accept" | "ignore" | "reject";

/** Events of the network: peers that completed or lost the handshake, and status updates. */
export interface PeerNetworkEvents {
  peerConnected: [PeerInfo];
  peerDisconnected: [PeerId];
  /** A peer announced a new best block (status message or gossip). */
  peerStatus: [PeerInfo];
}

/**
 * The network as sync and the relay use it. Requests time out (`P2PError` TIMEOUT, and a
 * TIMEOUT_MESSAGE for the peer) and are capped: at most `MAX_HEADERS_PER_REQUEST` headers and
 * `MAX_BODIES_PER_REQUEST` bodies per request; a peer answering more or other than asked is
 * scored and the request fails with `P2PError` BAD_RESPONSE.
 */
export interface PeerNetwork {
  /** Peers that completed the status handshake. */
  peers(): PeerInfo[];
  /** Canonical headers `start`, `start+1`, … (fewer if the peer has fewer), oldest first. */
  getHeadersByNumber(peer: PeerId, start: number, count: number): Promise<BlockHeader[]>;
  /** Headers by hash (any the peer has, in the order asked, missing ones left out). */
  getHeadersByHash(peer: PeerId, hashes: Uint8Array[]): Promise<BlockHeader[]>;
  /** Bodies by block hash, in the order asked; a missing block ends the list there. */
  getBodies(peer: PeerId, hashes: Uint8Array[]): Promise<BlockBody[]>;
  /** Gossips a block we imported or mined (the gossip topic of blocks). */
  publishBlock(block: Block): Promise<void>;
  /**
   * Gossips a transaction our pool admitted (the gossip topic of transactions); resolves with the
   * number of peers it was sent to (0 when gossip knows no peer on the topic yet).
   */
  publishTransaction(tx: Transaction): Promise<number>;
  /**
   * Pushes transactions straight to one peer (`/pooledtxs/1`), past gossip: to a peer that just
   * connected, or when gossip reached no one; resolves with how many the peer admitted.
   */
  sendTransactions(peer: PeerId, txs: readonly Transaction[]): Promise<number>;
  /** Installs the validator of gossiped blocks (one handler; the relay's). */
  onBlock(handler: (message: GossipMessage<Block>) => Promise<GossipVerdict>): void;
  /** Installs the validator of gossiped transactions (one handler; the relay's). */
  onTransaction(handler: (message: GossipMessage<Transaction>) => Promise<GossipVerdict>): void;
  /** Installs the judge of transactions a peer pushed (one handler; the relay's); "accept" counts as admitted. */
  onPushedTransaction(handler: (message: GossipMessage<Transaction>) => Promise<GossipVerdict>): void;
  /** Tells peers our new best block (a status message to each). */
  announceStatus(status: PeerStatus): void;
  /** Scores a peer (see `PeerEvent`). */
  report(peer: PeerId, event: PeerEvent): void;
  /** Ends the connection with a peer (without banning it). */
  disconnect(peer: PeerId): Promise<void>;
  on<E extends keyof PeerNetworkEvents>(event: E, listener: (...args: PeerNetworkEvents[E]) => void): void;
  off<E extends keyof PeerNetworkEvents>(event: E, listener: (...args: PeerNetworkEvents[E]) => void): void;
}

/** Caps of the request/response protocols (docs/p2p.md). */
export const MAX_HEADERS_PER_REQUEST = 192;
export const MAX_BODIES_PER_REQUEST = 128;
/** Largest message any xchain protocol accepts (a length-prefixed frame), in bytes. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/** Version of the protocol suite carried in the status message. */
export const PROTOCOL_VERSION = 1;

/** The chain as the host serves it: headers and bodies for requests, the head for the status handshake. */
export interface P2PChainView {
  readonly genesisHash: Uint8Array;
  head(): {hash: Uint8Array; number: number; totalDifficulty: bigint};
  getHeader(hash: Uint8Array): Promise<BlockHeader | undefined>;
  getHeaderByNumber(number: number): Promise<BlockHeader | undefined>;
  /**
   * A stored block's body, encoded as `/bodies/1` carries it (`encodeBody`: `[transactions as received,
   * uncles]`), read as stored rather than decoded and encoded again.
   */
  getBodyEncoding(hash: Uint8Array): Promise<Uint8Array | undefined>;
}

/** What `P2PNetwork.start` needs. */
export interface P2PModules {
  /** The node's identity (`loadOrCreateIdentity` in the data directory). */
  privateKey: PrivateKey;
  networkId: number;
  /** Decoding of blocks, headers and transactions of this network (rules and chain id). */
  decodeOptions: BlockDecodeOptions;
  chain: P2PChainView;
  scoring: PeerScoring;
  /** Default `noopLogger`. */
  logger?: Logger;
}
