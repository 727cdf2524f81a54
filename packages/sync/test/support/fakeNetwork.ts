/**
 * An in-memory `PeerNetwork` that behaves like the libp2p host as far as sync and the relay can
 * tell: peers appear after a status handshake (each side learns the other's head), statuses change
 * only when a peer announces one, requests are asynchronous, capped, served from the remote peer's
 * own chain and fail when the connection is gone (also while in flight); everything crosses the
 * "wire" encoded and decoded again; gossip reaches linked peers once each (message id = hash) and
 * goes on from a peer only when its handler accepts it; a gossiped block that extends its sender's
 * announced best block becomes the sender's status once the handler has answered. Tests can make a peer misbehave (`serve`,
 * `statusOverride`) and read what each node reported, published, announced and answered.
 */
import {EventEmitter} from "node:events";
import type {Chain} from "@xchain/chain";
import type {Chainspec} from "@xchain/chainspec";
import {
  type BlockBody,
  type GossipMessage,
  type GossipVerdict,
  MAX_BODIES_PER_REQUEST,
  MAX_HEADERS_PER_REQUEST,
  MAX_PUSHED_TRANSACTIONS,
  type PeerEvent,
  type PeerId,
  type PeerInfo,
  type PeerNetwork,
  type PeerNetworkEvents,
  type PeerStatus,
  PROTOCOL_VERSION,
} from "@xchain/p2p";
import {Block, BlockHeader, Transaction} from "@xchain/primitives";
import {bytesToHex, equalBytes, NodeError} from "@xchain/utils";

/** Why a fake request failed (the real host's P2PError codes are its own). */
export class FakeNetworkError extends NodeError<{code: "FAKE_NOT_CONNECTED" | "FAKE_OVER_CAP"; peer: string}> {}

/** One request as the hub saw it. */
export interface RequestRecord {
  from: PeerId;
  to: PeerId;
  kind: "headersByNumber" | "headersByHash" | "bodies" | "pooledTransactions";
  start?: number;
  count: number;
  /** The hashes asked for (hex), by hash requests. */
  hashes?: string[];
}

/** One gossip verdict as the hub saw it. */
export interface VerdictRecord {
  node: PeerId;
  from: PeerId;
  topic: "block" | "transaction";
  hash: string;
  verdict: GossipVerdict;
}

/** Connects fake networks. */
export class FakeHub {
  readonly nodes = new Map<PeerId, FakeNetwork>();
  readonly requests: RequestRecord[] = [];
  readonly verdicts: VerdictRecord[] = [];
  /** Delay of every request and gossip hop. */
  latencyMs = 1;
  private readonly links = new Set<string>();

  constructor(readonly chainspec: Chainspec) {}

  /** A node over `chain` with this peer id (a node with the same id is replaced: a restart). */
  node(id: PeerId, chain: Chain): FakeNetwork {
    const existing = this.nodes.get(id);
    if (existing) for (const other of this.nodes.values()) if (this.linked(id, other.id)) this.disconnect(id, other.id);
    const node = new FakeNetwork(this, id, chain);
    this.nodes.set(id, node);
    return node;
  }

  /** Handshake: each side learns the other's current head, then both see `peerConnected`. */
  connect(a: PeerId, b: PeerId): void {
    if (this.linked(a, b)) return;
    const [na, nb] = [this.get(a), this.get(b)];
    this.links.add(key(a, b));
    na.learn(b, nb.currentStatus(), "peerConnected");
    nb.learn(a, na.currentStatus(), "peerConnected");
  }

  disconnect(a: PeerId, b: PeerId): void {
    if (!this.links.delete(key(a, b))) return;
    this.get(a).forget(b);
    this.get(b).forget(a);
  }

  linked(a: PeerId, b: PeerId): boolean {
    return this.links.has(key(a, b));
  }

  get(id: PeerId): FakeNetwork {
    const node = this.nodes.get(id);
    if (!node) throw new Error(`no node ${id}`);
    return node;
  }

  neighbours(id: PeerId): FakeNetwork[] {
    return [...this.nodes.values()].filter((node) => node.id !== id && this.linked(id, node.id));
  }

  delay(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, this.latencyMs));
  }
}

function key(a: PeerId, b: PeerId): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}

/** One node's view of the network. */
export class FakeNetwork implements PeerNetwork {
  /** Reports in order, each with the number of requests the hub had seen by then. */
  readonly reports: {peer: PeerId; event: PeerEvent; requestsSoFar: number}[] = [];
  readonly publishedBlocks: Block[] = [];
  readonly publishedTransactions: Transaction[] = [];
  /** Transactions this node pushed, with the peer each went to. */
  readonly pushedTransactions: {peer: PeerId; tx: Transaction}[] = [];
  readonly announced: PeerStatus[] = [];
  /** Misbehaviour of this node when it serves requests. */
  serve: {
    headers?: (headers: BlockHeader[]) => BlockHeader[];
    bodies?: (bodies: BlockBody[], hashes: Uint8Array[]) => BlockBody[] | Promise<BlockBody[]>;
  } = {};
  /** What this node claims in handshakes (a lying peer). */
  statusOverride?: (status: PeerStatus) => PeerStatus;
  private readonly events = new EventEmitter<PeerNetworkEvents>();
  private readonly known = new Map<PeerId, PeerStatus>();
  private readonly seenGossip = new Set<string>();
  private blockHandler?: (message: GossipMessage<Block>) => Promise<GossipVerdict>;
  private txHandler?: (message: GossipMessage<Transaction>) => Promise<GossipVerdict>;
  private pushHandler?: (message: GossipMessage<Transaction>) => Promise<GossipVerdict>;
  /** Peers gossip does not reach yet (a peer whose topics the real host has not learnt). */
  readonly gossipBlind = new Set<PeerId>();

  constructor(
    private readonly hub: FakeHub,
    readonly id: PeerId,
    readonly chain: Chain,
  ) {}

  /** The status handshake this node sends: its chain's head. */
  currentStatus(): PeerStatus {
    const head = this.chain.head();
    const status: PeerStatus = {
      protocolVersion: PROTOCOL_VERSION,
      networkId: 7771,
      genesisHash: this.chain.genesisHash,
      bestHash: head.hash,
      bestNumber: head.number,
      totalDifficulty: head.totalDifficulty,
    };
    return this.statusOverride ? this.statusOverride(status) : status;
  }

  /** Announces the chain's current head to the linked peers (what a node without a relay would not do by itself). */
  announceHead(): void {
    this.announceStatus(this.currentStatus());
  }

  learn(peer: PeerId, status: PeerStatus, event: "peerConnected" | "peerStatus"): void {
    this.known.set(peer, status);
    const info = this.info(peer);
    if (info) setImmediate(() => this.known.has(peer) && this.events.emit(event, info));
  }

  forget(peer: PeerId): void {
    this.known.delete(peer);
    setImmediate(() => this.events.emit("peerDisconnected", peer));
  }

  peers(): PeerInfo[] {
    return [...this.known.keys()].flatMap((id) => this.info(id) ?? []);
  }

  private info(id: PeerId): PeerInfo | undefined {
    const status = this.known.get(id);
    return status && {id, remoteAddress: `/ip4/127.0.0.1/tcp/${30000 + id.length}`, status, inbound: false};
  }

  getHeadersByNumber(peer: PeerId, start: number, count: number): Promise<BlockHeader[]> {
    return this.request(peer, {kind: "headersByNumber", start, count}, MAX_HEADERS_PER_REQUEST, (remote) =>
      remote.serveHeadersByNumber(start, count),
    );
  }

  getHeadersByHash(peer: PeerId, hashes: Uint8Array[]): Promise<BlockHeader[]> {
    return this.request(
      peer,
      {kind: "headersByHash", count: hashes.length, hashes: hashes.map(bytesToHex)},
      MAX_HEADERS_PER_REQUEST,
      (remote) => remote.serveHeadersByHash(hashes),
    );
  }

  getBodies(peer: PeerId, hashes: Uint8Array[]): Promise<BlockBody[]> {
    return this.request(
      peer,
      {kind: "bodies", count: hashes.length, hashes: hashes.map(bytesToHex)},
      MAX_BODIES_PER_REQUEST,
      (remote) => remote.serveBodies(hashes),
    );
  }

  async publishBlock(block: Block): Promise<void> {
    this.publishedBlocks.push(block);
    this.gossip("block", bytesToHex(block.hash()), block.encode(), undefined);
  }

  async publishTransaction(tx: Transaction): Promise<number> {
    this.publishedTransactions.push(tx);
    return this.gossip("transaction", bytesToHex(tx.hash()), tx.encode(), undefined);
  }

  sendTransactions(peer: PeerId, txs: readonly Transaction[]): Promise<number> {
    for (const tx of txs) this.pushedTransactions.push({peer, tx});
    const encoded = txs.map((tx) => tx.encode());
    return this.request(peer, {kind: "pooledTransactions", count: txs.length}, MAX_PUSHED_TRANSACTIONS, (remote) =>
      remote.takePush(this.id, encoded),
    );
  }

  onPushedTransaction(handler: (message: GossipMessage<Transaction>) => Promise<GossipVerdict>): void {
    this.pushHandler = handler;
  }

  /** Judges pushed transactions as the host's server does; resolves with how many were admitted. */
  async takePush(from: PeerId, encoded: Uint8Array[]): Promise<number> {
    const chainId = this.hub.chainspec.params.chainId;
    let admitted = 0;
    for (const bytes of encoded) {
      const value = Transaction.decode(bytes, {chainId, allowRemasc: false});
      if ((await this.pushHandler?.({from, value})) === "accept") admitted++;
    }
    return admitted;
  }

  onBlock(handler: (message: GossipMessage<Block>) => Promise<GossipVerdict>): void {
    this.blockHandler = handler;
  }

  onTransaction(handler: (message: GossipMessage<Transaction>) => Promise<GossipVerdict>): void {
    this.txHandler = handler;
  }

  announceStatus(status: PeerStatus): void {
    this.announced.push(status);
    for (const peer of this.hub.neighbours(this.id)) peer.learn(this.id, status, "peerStatus");
  }

  report(peer: PeerId, event: PeerEvent): void {
    this.reports.push({peer, event, requestsSoFar: this.hub.requests.length});
  }

  async disconnect(peer: PeerId): Promise<void> {
    this.hub.disconnect(this.id, peer);
  }

  on<E extends keyof PeerNetworkEvents>(event: E, listener: (...args: PeerNetworkEvents[E]) => void): void {
    this.events.on(event, listener as never);
  }

  off<E extends keyof PeerNetworkEvents>(event: E, listener: (...args: PeerNetworkEvents[E]) => void): void {
    this.events.off(event, listener as never);
  }

  /** Events this node reported about `peer`. */
  reportsAbout(peer: PeerId): PeerEvent[] {
    return this.reports.filter((r) => r.peer === peer).map((r) => r.event);
  }

  /** Delivers a gossip message from `from` as if it came over the topic; resolves with this node's verdict. */
  async deliver(topic: "block" | "transaction", from: PeerId, bytes: Uint8Array): Promise<GossipVerdict> {
    await this.hub.delay();
    const rules = {rules: this.hub.chainspec, chainId: this.hub.chainspec.params.chainId};
    let verdict: GossipVerdict = "ignore";
    let hash: string;
    if (topic === "block") {
      const block = Block.decode(bytes, rules);
      hash = bytesToHex(block.hash());
      if (this.blockHandler) verdict = await this.blockHandler({from, value: block});
      if (verdict !== "reject") this.noteBlock(from, block);
    } else {
      const tx = Transaction.decode(bytes, rules);
      hash = bytesToHex(tx.hash());
      if (this.txHandler) verdict = await this.txHandler({from, value: tx});
    }
    this.hub.verdicts.push({node: this.id, from, topic, hash, verdict});
    return verdict;
  }

  /** As the host does: a gossiped block that extends the sender's announced best becomes its best. */
  private noteBlock(from: PeerId, block: Block): void {
    const status = this.known.get(from);
    if (!status || !equalBytes(block.header.parentHash, status.bestHash)) return;
    let totalDifficulty = status.totalDifficulty + block.header.difficulty;
    for (const uncle of block.uncles) totalDifficulty += uncle.difficulty;
    this.learn(
      from,
      {...status, bestHash: block.hash(), bestNumber: block.header.number, totalDifficulty},
      "peerStatus",
    );
  }

  /**
   * Gossipsub's flood: each linked peer once per message (not the `gossipBlind` ones); an accepting
   * peer forwards it. Answers how many peers it went to.
   */
  private gossip(topic: "block" | "transaction", id: string, bytes: Uint8Array, source: PeerId | undefined): number {
    this.seenGossip.add(id);
    let sent = 0;
    for (const peer of this.hub.neighbours(this.id)) {
      if (peer.id === source || peer.seenGossip.has(id) || this.gossipBlind.has(peer.id)) continue;
      sent++;
      peer.seenGossip.add(id);
      void peer.deliver(topic, this.id, bytes).then((verdict) => {
        if (verdict === "accept") peer.gossip(topic, id, bytes, this.id);
      });
    }
    return sent;
  }

  private async request<T>(
    peer: PeerId,
    record: Omit<RequestRecord, "from" | "to">,
    cap: number,
    serve: (remote: FakeNetwork) => Promise<T>,
  ): Promise<T> {
    this.hub.requests.push({from: this.id, to: peer, ...record});
    if (record.count > cap) throw new FakeNetworkError({code: "FAKE_OVER_CAP", peer}, `${record.count} > cap ${cap}`);
    this.ensureLinked(peer);
    await this.hub.delay();
    this.ensureLinked(peer);
    const answer = await serve(this.hub.get(peer));
    await this.hub.delay();
    this.ensureLinked(peer);
    return answer;
  }

  private ensureLinked(peer: PeerId): void {
    if (!this.hub.linked(this.id, peer)) {
      throw new FakeNetworkError({code: "FAKE_NOT_CONNECTED", peer}, `${peer} is not connected`);
    }
  }

  async serveHeadersByNumber(start: number, count: number): Promise<BlockHeader[]> {
    const headers: BlockHeader[] = [];
    for (let n = start; n < start + Math.min(count, MAX_HEADERS_PER_REQUEST); n++) {
      const header = await this.chain.getHeaderByNumber(n);
      if (!header) break;
      headers.push(header);
    }
    return this.wire(this.serve.headers ? this.serve.headers(headers) : headers);
  }

  async serveHeadersByHash(hashes: Uint8Array[]): Promise<BlockHeader[]> {
    const headers: BlockHeader[] = [];
    for (const hash of hashes.slice(0, MAX_HEADERS_PER_REQUEST)) {
      const header = await this.chain.getHeader(hash);
      if (header) headers.push(header);
    }
    return this.wire(headers);
  }

  async serveBodies(hashes: Uint8Array[]): Promise<BlockBody[]> {
    const headers: BlockHeader[] = [];
    let bodies: BlockBody[] = [];
    for (const hash of hashes.slice(0, MAX_BODIES_PER_REQUEST)) {
      const block = await this.chain.getBlock(hash);
      if (!block) break;
      headers.push(block.header);
      bodies.push({transactions: [...block.transactions], uncles: [...block.uncles]});
    }
    if (this.serve.bodies) bodies = await this.serve.bodies(bodies, hashes);
    const rules = {rules: this.hub.chainspec, chainId: this.hub.chainspec.params.chainId};
    return bodies.map((body, i) => {
      // Through the wire: the receiving host decodes a body as the transactions and uncles of a block encoding.
      const header = headers[Math.min(i, headers.length - 1)] ?? this.chain.head().header;
      const decoded = Block.decode(new Block(header, body.transactions, body.uncles).encode(), rules);
      return {transactions: [...decoded.transactions], uncles: [...decoded.uncles]};
    });
  }

  private wire(headers: BlockHeader[]): BlockHeader[] {
    return headers.map((header) => BlockHeader.decode(header.encode(), this.hub.chainspec));
  }
}
