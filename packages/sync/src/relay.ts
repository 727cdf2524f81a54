/**
 * The relay keeps a synced node at the tip. In: it validates gossiped blocks (`BlockGossip`) and transactions
 * (`TxGossip`). Out: on every new head it announces our status (at most once a second while the sync imports,
 * the last head always), and publishes the head block when it did not come from the network (mined here or
 * submitted by RPC; blocks from gossip were forwarded by gossip already, blocks from a sync are old news);
 * every transaction that becomes pending and did not come from gossip is published (no echo), and pushed
 * straight to every peer when gossip reached none (its mesh not formed yet). A peer that connects gets
 * our pending transactions pushed (docs/p2p.md "Pending transactions to new peers"): a transaction sent to
 * a node while it had no peer, or while the miner was away, is not lost in its pool.
 */
import type {NewHeadEvent} from "@xchain/chain";
import {type PeerInfo, type PeerNetwork, PROTOCOL_VERSION} from "@xchain/p2p";
import type {Transaction} from "@xchain/primitives";
import {equalBytes} from "@xchain/utils";
import {BlockGossip} from "./blockGossip.ts";
import {errorDetail} from "./errors.ts";
import type {RelayOptions} from "./options.ts";
import {TxGossip} from "./txGossip.ts";
import type {RelayModules} from "./types.ts";

/** Our status is announced at most this often while the sync imports blocks (always at once otherwise). */
export const SYNC_STATUS_INTERVAL_MS = 1_000;

/** Gossip in and out; see the file comment. */
export class Relay {
  private readonly blocks: BlockGossip;
  private readonly transactions: TxGossip;
  private started = false;
  private unsubscribePending: (() => void) | undefined;
  private statusTimer: ReturnType<typeof setTimeout> | undefined;
  private lastAnnounce = 0;
  private readonly onNewHead = (event: NewHeadEvent): void => this.newHead(event);
  private readonly onPending = (tx: Transaction): void => this.pending(tx);
  private readonly onPeerConnected = (peer: PeerInfo): void => this.pushPool(peer.id);

  private readonly network: PeerNetwork;

  /** `opts`: usually `defaultRelayOptions`. */
  constructor(
    opts: RelayOptions,
    private readonly deps: RelayModules,
  ) {
    const {network} = deps;
    this.network = network;
    const limits = {...opts, logger: deps.logger};
    const {chain, sync, senderRecovery} = deps;
    this.blocks = new BlockGossip({network, chain, sync, senderRecovery, ...limits});
    this.transactions = new TxGossip({network, txpool: deps.txpool, ...limits});
  }

  /** Installs the gossip handlers and follows the chain and the txpool. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.network.onBlock((message) => (this.started ? this.blocks.handle(message) : Promise.resolve("ignore")));
    this.network.onTransaction((message) =>
      this.started ? this.transactions.handle(message) : Promise.resolve("ignore"),
    );
    this.network.onPushedTransaction((message) =>
      this.started ? this.transactions.handlePushed(message) : Promise.resolve("ignore"),
    );
    this.network.on("peerConnected", this.onPeerConnected);
    this.deps.chain.events.on("newHead", this.onNewHead);
    this.unsubscribePending = this.deps.txpool.onPending(this.onPending);
  }

  /** Stops publishing; gossip is ignored from now on. */
  stop(): void {
    if (!this.started) return;
    this.started = false;
    this.deps.chain.events.off("newHead", this.onNewHead);
    this.network.off("peerConnected", this.onPeerConnected);
    this.unsubscribePending?.();
    this.unsubscribePending = undefined;
    clearTimeout(this.statusTimer);
    this.statusTimer = undefined;
  }

  private newHead(event: NewHeadEvent): void {
    const {head} = event;
    const block = event.added.at(-1);
    const sync = this.deps.sync;
    if (
      block &&
      equalBytes(block.hash(), head.hash) &&
      !this.blocks.fromNetwork(head.hash) &&
      !sync?.importedBySync(head.hash)
    ) {
      void this.send("block", () => this.network.publishBlock(block));
    }
    // While syncing, a status per imported block would be a message per block to every peer.
    if (sync?.importedBySync(head.hash)) this.announceLater();
    else this.announce();
  }

  /** Announces our head now. */
  private announce(): void {
    clearTimeout(this.statusTimer);
    this.statusTimer = undefined;
    this.lastAnnounce = Date.now();
    const head = this.deps.chain.head();
    void this.send("status", async () =>
      this.network.announceStatus({
        protocolVersion: PROTOCOL_VERSION,
        networkId: this.deps.chainspec.params.p2pNetworkId,
        genesisHash: this.deps.chain.genesisHash,
        bestHash: head.hash,
        bestNumber: head.number,
        totalDifficulty: head.totalDifficulty,
      }),
    );
  }

  /** Announces our head at most once per `SYNC_STATUS_INTERVAL_MS`, the last one included. */
  private announceLater(): void {
    const wait = this.lastAnnounce + SYNC_STATUS_INTERVAL_MS - Date.now();
    if (wait <= 0) this.announce();
    else this.statusTimer ??= setTimeout(() => this.announce(), wait);
  }

  private pending(tx: Transaction): void {
    if (!isRelayable(tx) || this.transactions.fromNetwork(tx.hash())) return;
    void this.send("transaction", async () => {
      if ((await this.network.publishTransaction(tx)) > 0) return;
      // Gossip knows no peer on the topic yet (a peer that just connected has not told its topics):
      // each peer gets it straight; one that has it already ignores it.
      for (const peer of this.network.peers()) void this.send("transaction", () => this.push(peer.id, [tx]));
    });
  }

  /** Pushes our pending transactions to a peer that just connected. */
  private pushPool(peer: string): void {
    const txs = this.deps.txpool.pending().filter(isRelayable);
    if (txs.length > 0) void this.send("pending transactions", () => this.push(peer, txs));
  }

  private async push(peer: string, txs: readonly Transaction[]): Promise<void> {
    const admitted = await this.network.sendTransactions(peer, txs);
    this.deps.logger?.debug({peer, pushed: txs.length, admitted}, "pending transactions pushed");
  }

  /** Sends something out; a failure (no peers subscribed, host stopping) is only logged: listeners must not throw. */
  private async send(what: string, send: () => Promise<unknown>): Promise<void> {
    try {
      await send();
    } catch (e) {
      this.deps.logger?.debug({what, detail: errorDetail(e)}, "not sent");
    }
  }
}

/**
 * Whether a pending transaction goes to peers: not an impersonated one (a dev node's, docs/rpc.md §4.10),
 * valid to this node only: a peer would recover another sender and count it against us.
 */
function isRelayable(tx: Transaction): boolean {
  return !tx.impersonatedSender;
}
