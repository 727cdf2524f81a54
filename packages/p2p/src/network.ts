/**
 * `P2PNetwork`: xchain's `PeerNetwork` over libp2p 3. It owns the libp2p node and wires its parts:
 * the gater (bans, pending inbound handshakes, `maxPeers`), the status handshake on every new connection, the request client
 * and server, gossip, and the bootnodes it keeps connected to.
 */
import type {Connection} from "@libp2p/interface";
import {peerIdFromString} from "@libp2p/peer-id";
import {multiaddr} from "@multiformats/multiaddr";
import type {Block, BlockHeader, Transaction} from "@xchain/primitives";
import {type Logger, noopLogger} from "@xchain/utils";
import {ipOf, peerIdIn} from "./address.ts";
import {InboundAdmission} from "./admission.ts";
import {BootnodeKeeper} from "./bootnodeKeeper.ts";
import {bootnodeProblem, type TrustedPeers, trustedPeersOf} from "./bootnodes.ts";
import type {Host, NetworkContext} from "./context.ts";
import {P2PError, P2PErrorCode} from "./errors.ts";
import {createGater} from "./gater.ts";
import {type GossipHandler, GossipRouter} from "./gossip.ts";
import {createHost} from "./host.ts";
import {InboundQueue} from "./inboundQueue.ts";
import {MAX_BOOTNODES, type P2POptions} from "./options.ts";
import {PeerBook} from "./peerBook.ts";
import {protocolIds} from "./protocols.ts";
import {Requester} from "./requester.ts";
import {type PushedTransactionHandler, RequestServer} from "./server.ts";
import {StatusProtocol} from "./statusProtocol.ts";
import type {
  BlockBody,
  P2PModules,
  PeerEvent,
  PeerId,
  PeerInfo,
  PeerNetwork,
  PeerNetworkEvents,
  PeerStatus,
} from "./types.ts";
import {MAX_PUSHED_TRANSACTIONS} from "./wire/transactions.ts";

/** Bytes of transactions in one push, well below a frame's `MAX_MESSAGE_BYTES` (a transaction is at most 128 KiB). */
export const PUSH_BYTES = 1024 * 1024;

/** Encoded transactions cut into pushes of at most `MAX_PUSHED_TRANSACTIONS` and about `PUSH_BYTES` each. */
export function pushesOf(encoded: readonly Uint8Array[]): Uint8Array[][] {
  const pushes: Uint8Array[][] = [];
  let push: Uint8Array[] = [];
  let bytes = 0;
  for (const tx of encoded) {
    if (push.length === MAX_PUSHED_TRANSACTIONS || (push.length > 0 && bytes + tx.length > PUSH_BYTES)) {
      pushes.push(push);
      push = [];
      bytes = 0;
    }
    push.push(tx);
    bytes += tx.length;
  }
  if (push.length > 0) pushes.push(push);
  return pushes;
}

// How often connections are checked against bans made elsewhere (`sco_banAddress`).
const BAN_SWEEP_INTERVAL_MS = 5_000;

export class P2PNetwork implements PeerNetwork {
  private readonly peerBook: PeerBook;
  private readonly context: NetworkContext;
  private readonly statusProtocol: StatusProtocol;
  private readonly requester: Requester;
  private readonly server: RequestServer;
  private readonly gossip: GossipRouter;
  private readonly bootnodes: BootnodeKeeper;
  private readonly shutdown = new AbortController();
  private readonly log: Logger;
  private banSweep?: NodeJS.Timeout;

  private constructor(
    private readonly host: Host,
    options: P2POptions,
    private readonly deps: P2PModules,
    private readonly trusted: TrustedPeers,
  ) {
    this.log = deps.logger ?? noopLogger;
    this.peerBook = new PeerBook(this.log);
    this.context = {
      host,
      ids: protocolIds(deps.networkId),
      options,
      deps,
      peers: this.peerBook,
      log: this.log,
      inbound: new InboundQueue(),
      shutdown: this.shutdown.signal,
      report: (peer, event) => this.score(peer, event),
      hangUp: (peer, reason) => this.hangUp(peer, reason),
      handshakeFailed: (peer, reason, wrongNetwork) => this.bootnodes.handshakeFailed(peer, reason, wrongNetwork),
    };
    this.statusProtocol = new StatusProtocol(this.context);
    this.requester = new Requester(this.context);
    this.server = new RequestServer(this.context);
    this.gossip = new GossipRouter(this.context);
    this.bootnodes = new BootnodeKeeper(host, options.bootnodes, this.log);
  }

  /** Creates the libp2p node, registers xchain's protocols, listens and dials the bootnodes. */
  static async start(options: P2POptions, deps: P2PModules): Promise<P2PNetwork> {
    let host: Host | undefined;
    const trusted = trustedPeersOf(options.bootnodes);
    const gater = createGater({
      scoring: deps.scoring,
      maxPeers: options.maxPeers,
      admission: new InboundAdmission(
        {
          perAddress: options.maxPendingPerAddress,
          perNetwork: options.maxPendingPerNetwork,
          total: options.maxPendingHandshakes,
        },
        (address) => trusted.addresses.has(address),
      ),
      trustedPeers: trusted.peerIds,
      connectedPeers: () => new Set(host?.getConnections().map((c) => c.remotePeer.toString())),
    });
    host = await createHost(options, deps, protocolIds(deps.networkId), gater, trusted.addresses);
    const network = new P2PNetwork(host, options, deps, trusted);
    try {
      await network.begin();
    } catch (e) {
      await network.stop();
      throw e;
    }
    return network;
  }

  private async begin(): Promise<void> {
    await this.statusProtocol.register();
    await this.server.register();
    this.host.addEventListener("connection:open", (event) => this.connectionOpened(event.detail));
    this.host.addEventListener("peer:disconnect", (event) => {
      const peer = event.detail.toString();
      this.peerBook.remove(peer);
      this.server.forget(peer);
      this.bootnodes.lost(peer);
    });
    this.peerBook.events.on("peerConnected", (peer) => this.bootnodes.connected(peer.id));
    if (this.context.options.mdns) {
      this.host.addEventListener("peer:discovery", (event) => {
        if (this.host.getConnections(event.detail.id).length > 0) return;
        this.host.dial(event.detail.id).catch((e: unknown) => this.log.debug({err: String(e)}, "mDNS dial failed"));
      });
    }
    await this.host.start();
    this.gossip.start();
    this.bootnodes.start();
    this.banSweep = setInterval(() => this.enforceBans(), BAN_SWEEP_INTERVAL_MS);
    this.banSweep.unref();
    this.log.info({peerId: this.peerId, addresses: this.listenAddresses()}, "p2p listening");
  }

  /** Stops listening, closes every connection and ends every request in flight. */
  async stop(): Promise<void> {
    this.shutdown.abort();
    clearInterval(this.banSweep);
    this.bootnodes.stop();
    await this.host.stop();
    for (const peer of this.peerBook.list()) this.peerBook.remove(peer.id);
  }

  /** Our peer id (base58btc). */
  get peerId(): PeerId {
    return this.host.peerId.toString();
  }

  /** The multiaddrs we listen on, each ending in `/p2p/<our peer id>`. */
  listenAddresses(): string[] {
    const suffix = `/p2p/${this.peerId}`;
    return this.host.getMultiaddrs().map((a) => {
      const text = a.toString();
      return text.endsWith(suffix) ? text : `${text}${suffix}`;
    });
  }

  /** Whether the host runs and listens on at least one address. */
  listening(): boolean {
    return this.host.status === "started" && this.host.getMultiaddrs().length > 0;
  }

  peers(): PeerInfo[] {
    return this.peerBook.list();
  }

  /**
   * Messages received from peers and not yet handled: gossiped blocks and transactions waiting for
   * the node's verdict, and header and body requests waiting for their response to be written
   * (docs/p2p.md, "Queued messages").
   */
  queuedMessages(): number {
    return this.context.inbound.size;
  }

  getHeadersByNumber(peer: PeerId, start: number, count: number): Promise<BlockHeader[]> {
    return this.requester.getHeadersByNumber(peer, start, count);
  }

  getHeadersByHash(peer: PeerId, hashes: Uint8Array[]): Promise<BlockHeader[]> {
    return this.requester.getHeadersByHash(peer, hashes);
  }

  getBodies(peer: PeerId, hashes: Uint8Array[]): Promise<BlockBody[]> {
    return this.requester.getBodies(peer, hashes);
  }

  publishBlock(block: Block): Promise<void> {
    return this.gossip.publishBlock(block);
  }

  publishTransaction(tx: Transaction): Promise<number> {
    return this.gossip.publishTransaction(tx);
  }

  /**
   * Pushes transactions to one peer on `/pooledtxs/1`, in pushes of at most `MAX_PUSHED_TRANSACTIONS`
   * and `PUSH_BYTES`, one after the other; resolves with how many the peer admitted.
   */
  async sendTransactions(peer: PeerId, txs: readonly Transaction[]): Promise<number> {
    let admitted = 0;
    for (const push of pushesOf(txs.map((tx) => tx.encode())))
      admitted += await this.requester.pushTransactions(peer, push);
    return admitted;
  }

  onPushedTransaction(handler: PushedTransactionHandler): void {
    this.server.onPushedTransaction(handler);
  }

  onBlock(handler: GossipHandler<Block>): void {
    this.gossip.onBlock(handler);
  }

  onTransaction(handler: GossipHandler<Transaction>): void {
    this.gossip.onTransaction(handler);
  }

  announceStatus(status: PeerStatus): void {
    for (const peer of this.peerBook.list()) {
      const connection = this.openConnection(peer.id);
      if (connection) void this.statusProtocol.announce(connection, status);
    }
  }

  report(peer: PeerId, event: PeerEvent): void {
    this.score(peer, event);
  }

  /**
   * Dials a multiaddr (`…/p2p/<peer id>`); the status handshake follows. Fails when the dial does
   * (refused by the gater: banned or `maxPeers`; unreachable).
   */
  async connect(address: string): Promise<void> {
    if (this.host.status !== "started") throw new P2PError({code: P2PErrorCode.NOT_RUNNING});
    await this.host.dial(multiaddr(address), {signal: AbortSignal.timeout(this.context.options.requestTimeoutMs)});
  }

  /**
   * `admin_addPeer`: keeps `address` (`…/p2p/<peer id>`) connected from now on, as a bootnode is
   * (redialled when lost, failures logged), and starts dialling it. Throws `INVALID_PEER_ADDRESS` for
   * an address that is not such a multiaddr, `TOO_MANY_ADDED_PEERS` past `MAX_BOOTNODES` added peers.
   */
  addPeer(address: string): void {
    if (this.host.status !== "started") throw new P2PError({code: P2PErrorCode.NOT_RUNNING});
    const problem = bootnodeProblem(address);
    if (problem !== undefined) throw new P2PError({code: P2PErrorCode.INVALID_PEER_ADDRESS, address, reason: problem});
    if (!this.bootnodes.add(address, MAX_BOOTNODES)) {
      throw new P2PError({code: P2PErrorCode.TOO_MANY_ADDED_PEERS, limit: MAX_BOOTNODES});
    }
  }

  /**
   * `admin_removePeer`: stops keeping the peer of `address` (added with `addPeer`; a bootnode stays
   * kept) and disconnects it. Throws `INVALID_PEER_ADDRESS` as `addPeer` does.
   */
  async removePeer(address: string): Promise<void> {
    const problem = bootnodeProblem(address);
    if (problem !== undefined) throw new P2PError({code: P2PErrorCode.INVALID_PEER_ADDRESS, address, reason: problem});
    const peer = peerIdIn(multiaddr(address)) as string;
    this.bootnodes.remove(peer);
    if (!this.trusted.peerIds.has(peer)) await this.disconnect(peer);
  }

  /**
   * What `admin_peers` adds to a peer's `PeerInfo`: the agent version its identify announced (undefined
   * before identify ran), whether it is a bootnode (trusted past the limits) and whether it is kept
   * connected (a bootnode or added with `addPeer`).
   */
  async peerExtras(peer: PeerId): Promise<{agentVersion?: string; trusted: boolean; kept: boolean}> {
    const trusted = this.trusted.peerIds.has(peer);
    const kept = this.bootnodes.keeps(peer);
    try {
      const stored = await this.host.peerStore.get(peerIdFromString(peer));
      const agent = stored.metadata.get("AgentVersion");
      return {trusted, kept, ...(agent ? {agentVersion: new TextDecoder().decode(agent)} : {})};
    } catch {
      return {trusted, kept};
    }
  }

  async disconnect(peer: PeerId): Promise<void> {
    this.peerBook.remove(peer);
    await this.host.hangUp(peerIdFromString(peer)).catch((e: unknown) => {
      this.log.debug({peer, err: String(e)}, "hang up failed");
    });
  }

  /** Hangs up on every connected peer that scoring now says is banned (by id or address). */
  enforceBans(): void {
    for (const connection of this.host.getConnections()) {
      const peer = connection.remotePeer.toString();
      if (this.deps.scoring.isBanned(peer, ipOf(connection.remoteAddr))) this.hangUp(peer, "banned");
    }
  }

  on<E extends keyof PeerNetworkEvents>(event: E, listener: (...args: PeerNetworkEvents[E]) => void): void {
    (this.peerBook.events.on as (e: E, l: (...args: PeerNetworkEvents[E]) => void) => void)(event, listener);
  }

  off<E extends keyof PeerNetworkEvents>(event: E, listener: (...args: PeerNetworkEvents[E]) => void): void {
    (this.peerBook.events.off as (e: E, l: (...args: PeerNetworkEvents[E]) => void) => void)(event, listener);
  }

  private connectionOpened(connection: Connection): void {
    const peer = connection.remotePeer.toString();
    if (this.deps.scoring.isBanned(peer, ipOf(connection.remoteAddr))) {
      this.closeConnection(connection, "banned");
      return;
    }
    // The gater refuses connections beyond maxPeers; simultaneous ones can still get past it.
    // Bootnodes are let in all the same.
    const connected = new Set(this.host.getConnections().map((c) => c.remotePeer.toString()));
    if (connected.size > this.context.options.maxPeers && !this.trusted.peerIds.has(peer)) {
      this.closeConnection(connection, "too many peers");
      return;
    }
    void this.statusProtocol.handshake(connection);
  }

  /** Scores a peer; hangs up on it when it is now banned (then true). */
  private score(peer: PeerId, event: PeerEvent): boolean {
    const address = ipOf(this.openConnection(peer)?.remoteAddr);
    this.deps.scoring.record(peer, address, event);
    if (!this.deps.scoring.isBanned(peer, address)) return false;
    this.hangUp(peer, "banned");
    return true;
  }

  private hangUp(peer: PeerId, reason: string): void {
    this.log.debug({peer, reason}, "hanging up");
    this.peerBook.remove(peer);
    this.host.hangUp(peerIdFromString(peer)).catch((e: unknown) => {
      this.log.debug({peer, err: String(e)}, "hang up failed");
    });
  }

  private closeConnection(connection: Connection, reason: string): void {
    this.log.debug({peer: connection.remotePeer.toString(), reason}, "closing connection");
    connection.close().catch((e: unknown) => connection.abort(e instanceof Error ? e : new Error(String(e))));
  }

  private openConnection(peer: PeerId): Connection | undefined {
    return this.host.getConnections().find((c) => c.remotePeer.toString() === peer && c.status === "open");
  }
}
