/**
 * Decides when to sync and from whom. On start, on every peer that connects and
 * on every status a peer announces, it looks for a peer with more total difficulty than our head
 * that is far enough ahead (`selectSyncPeer`) and runs a `SyncRun` from the heaviest one; when the
 * run ends it looks again, so that it follows the heaviest peer until none is ahead. Then it is
 * idle (`progress()` undefined, `synced`) and the relay follows the tip, until a peer is ahead
 * again (a partition that heals: the peer's branch is imported from the common ancestor and the
 * chain's fork choice takes the heavier one). A peer whose run failed or brought no progress waits
 * a cool-down before it is chosen again. Everything imported is persisted by the chain, so a new
 * manager over the same chain starts from its head.
 */
import {EventEmitter} from "node:events";
import type {PeerId, PeerInfo, PeerNetwork} from "@xchain/p2p";
import {bytesToHex} from "@xchain/utils";
import {BoundedSet} from "./boundedSet.ts";
import {SyncError, SyncErrorCode} from "./errors.ts";
import {checkSyncOptions, type SyncOptions} from "./options.ts";
import {type SelectionContext, selectSyncPeer} from "./peerSelection.ts";
import {ProgressMeter} from "./progressMeter.ts";
import {SyncRun} from "./syncRun.ts";
import type {SyncEvents, SyncModules, SyncProgress, SyncRunResult, SyncTrigger} from "./types.ts";

/** How long a peer whose run failed or brought nothing waits before it is chosen again. */
export const PEER_COOLDOWN_MS = 15_000;
/** How long a `requestSync` makes its peer a candidate however few blocks it is ahead (once it is heavier). */
export const SYNC_REQUEST_TTL_MS = 10_000;
/** Hashes of blocks the sync imported, remembered for `importedBySync`. */
const IMPORTED_MEMORY = 1_024;

/** Errors that make the peer wait its cool-down even when the run imported something. */
const PEER_FAULTS = new Set<string>([
  SyncErrorCode.INVALID_HEADER,
  SyncErrorCode.INVALID_BLOCK,
  SyncErrorCode.UNEXPECTED_HEADERS,
  SyncErrorCode.NO_COMMON_ANCESTOR,
  SyncErrorCode.BODY_UNAVAILABLE,
  // Not a fault: the peer's branch forks below the states kept; it stays out of reach until the cool-down ends.
  SyncErrorCode.FORK_BELOW_RETENTION,
]);

/** Catches up with the heaviest peer; see the file comment. */
export class SyncManager implements SyncTrigger {
  readonly events = new EventEmitter<SyncEvents>();
  private readonly options: SyncOptions;
  private readonly nowSeconds: () => number;
  private started = false;
  private run: SyncRun | undefined;
  private runDone: Promise<void> | undefined;
  private meter: ProgressMeter | undefined;
  /** Peers the relay asked to sync from, until when the request stands. */
  private readonly requested = new Map<PeerId, number>();
  private readonly cooldowns = new Map<PeerId, number>();
  private readonly syncImported = new BoundedSet(IMPORTED_MEMORY);
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly onPeer = (): void => this.evaluate();
  private readonly onDisconnect = (peer: PeerId): void => {
    this.requested.delete(peer);
  };

  private readonly network: PeerNetwork;

  /** Throws `SyncError` INVALID_OPTIONS for an option out of its bounds. */
  constructor(
    opts: SyncOptions,
    private readonly deps: SyncModules,
  ) {
    this.network = deps.network;
    this.options = checkSyncOptions({...opts});
    this.nowSeconds = deps.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
  }

  /** Follows the peers' statuses and syncs whenever one is ahead. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.network.on("peerConnected", this.onPeer);
    this.network.on("peerStatus", this.onPeer);
    this.network.on("peerDisconnected", this.onDisconnect);
    this.evaluate();
  }

  /** Stops following the peers and ends the run in progress (after the block being imported). */
  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.network.off("peerConnected", this.onPeer);
    this.network.off("peerStatus", this.onPeer);
    this.network.off("peerDisconnected", this.onDisconnect);
    clearTimeout(this.retryTimer);
    this.run?.stop();
    await this.runDone;
    this.meter = undefined;
  }

  /** Where the sync is; undefined when not syncing. */
  progress(): SyncProgress | undefined {
    return this.meter?.snapshot();
  }

  /** The peer the sync downloads headers from, when syncing. */
  syncPeer(): PeerId | undefined {
    return this.run?.peer;
  }

  requestSync(peer: PeerId): void {
    if (!this.started) return;
    this.requested.set(peer, Date.now() + SYNC_REQUEST_TTL_MS);
    // After the gossip handler returns: the network updates the sender's status from the block then.
    setImmediate(() => this.evaluate());
  }

  importedBySync(hash: Uint8Array): boolean {
    return this.syncImported.has(bytesToHex(hash));
  }

  /** Starts a run from the best candidate when none is running; goes idle when there is none. */
  private evaluate(): void {
    if (!this.started || this.run) return;
    const head = this.deps.chain.head();
    const now = Date.now();
    const peers = this.network.peers();
    for (const [id, until] of this.requested) {
      if (until <= now || !peers.some((p) => p.id === id)) this.requested.delete(id);
    }
    const context: SelectionContext = {
      head,
      genesisHash: this.deps.chain.genesisHash,
      minBlocksBehind: this.options.minBlocksBehind,
      requested: new Set(this.requested.keys()),
      coolingDown: (id) => (this.cooldowns.get(id) ?? 0) > now,
    };
    const peer = selectSyncPeer(peers, context);
    if (peer) {
      this.startRun(peer);
      return;
    }
    this.scheduleRetry(now);
    if (this.meter) {
      this.meter = undefined;
      this.deps.logger?.info({number: head.number}, "synced");
      this.events.emit("synced", {number: head.number, hash: head.hash});
    }
  }

  private startRun(peer: PeerInfo): void {
    this.requested.delete(peer.id);
    const before = this.deps.chain.head();
    let meter = this.meter;
    if (!meter) {
      meter = new ProgressMeter(before.number);
      this.meter = meter;
      meter.target(peer.status.bestNumber);
      this.deps.logger?.info({peer: peer.id, from: before.number, to: peer.status.bestNumber}, "sync started");
      this.events.emit("started", {peer: peer.id, progress: meter.snapshot()});
    }
    const run = new SyncRun(
      {
        network: this.network,
        chain: this.deps.chain,
        chainspec: this.deps.chainspec,
        options: this.options,
        nowSeconds: this.nowSeconds,
        senderRecovery: this.deps.senderRecovery,
        logger: this.deps.logger,
        beforeImport: (hash) => this.syncImported.add(bytesToHex(hash)),
        imported: (number) => {
          meter.imported(number);
          this.events.emit("progress", meter.snapshot());
        },
        target: (number) => meter.target(number),
      },
      peer.id,
    );
    this.run = run;
    this.runDone = run.run().then((result) => this.runEnded(result, before.totalDifficulty));
  }

  private runEnded(result: SyncRunResult, totalDifficultyBefore: bigint): void {
    this.run = undefined;
    const {error} = result;
    const code = error instanceof SyncError ? error.type.code : undefined;
    const progressed = this.deps.chain.head().totalDifficulty > totalDifficultyBefore;
    if (code !== SyncErrorCode.STOPPED && (!progressed || (code !== undefined && PEER_FAULTS.has(code)))) {
      this.cooldowns.set(result.peer, Date.now() + PEER_COOLDOWN_MS);
    }
    const context = {peer: result.peer, imported: result.imported, head: this.deps.chain.head().number};
    if (error) this.deps.logger?.warn({...context, code: code ?? error.name, detail: error.message}, "sync run ended");
    else this.deps.logger?.debug(context, "sync run ended");
    this.events.emit("runEnded", result);
    this.evaluate();
  }

  /** Looks again when the first cool-down ends (a cooling peer may be the one ahead). */
  private scheduleRetry(now: number): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    let next = Number.POSITIVE_INFINITY;
    for (const [peer, until] of this.cooldowns) {
      if (until <= now) this.cooldowns.delete(peer);
      else next = Math.min(next, until);
    }
    if (next === Number.POSITIVE_INFINITY) return;
    this.retryTimer = setTimeout(() => this.evaluate(), next - now);
    this.retryTimer.unref?.();
  }
}
