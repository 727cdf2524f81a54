/**
 * One sync run from one peer: the common ancestor, then two loops side by side. The header loop
 * downloads `headersPerRequest` headers at a time from the peer, checks them (`checkHeaderBatch`)
 * and queues their bodies, staying at most a window ahead of the importer; the import loop takes
 * the headers in order, waits for each body, assembles the block and imports it through the chain
 * (full validation). The run ends when the peer has no more headers and everything is imported, or
 * with the first error; headers checked before an invalid one are still imported. A peer whose chain
 * forks from ours below the oldest state kept (a pruned node) ends the run after its first headers
 * are checked, reported only if they are invalid.
 */

import {type ImportResult, ImportResultKind} from "@xchain/chain";
import type {Chainspec} from "@xchain/chainspec";
import {PeerEvent, type PeerId, type PeerNetwork} from "@xchain/p2p";
import {Block, type BlockHeader} from "@xchain/primitives";
import type {Logger} from "@xchain/utils";
import {BodyFetcher, type FetchedBody} from "./bodyFetcher.ts";
import {findCommonAncestor} from "./commonAncestor.ts";
import {errorCode, errorDetail, SyncError, SyncErrorCode} from "./errors.ts";
import {checkHeaderBatch} from "./headerChain.ts";
import {importFault} from "./importFailure.ts";
import type {SyncOptions} from "./options.ts";
import {requestFromPeer} from "./requests.ts";
import type {SyncChain, SyncRunResult, SyncSenderRecovery} from "./types.ts";

/** What a run needs, and whom it tells about its progress. */
export interface SyncRunDeps {
  network: PeerNetwork;
  chain: SyncChain;
  chainspec: Chainspec;
  options: SyncOptions;
  nowSeconds: () => number;
  /** Recovers the senders of the downloaded blocks ahead of their import; default none. */
  senderRecovery?: SyncSenderRecovery;
  logger?: Logger;
  /** Called before each import (the relay does not gossip blocks the sync imports). */
  beforeImport(hash: Uint8Array): void;
  /** Called after each block the run imported that was not stored before. */
  imported(number: number): void;
  /** The highest block number the run knows the peer has. */
  target(number: number): void;
}

/** Wakes the loops of a run when the other one made progress. */
class Wakeup {
  private waiters: (() => void)[] = [];

  wait(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}

/** A sync from `peer` up to its best block. */
export class SyncRun {
  private readonly headers: BlockHeader[] = [];
  private headersDone = false;
  /** The error that ends the run once the checked headers are imported. */
  private endError: Error | undefined;
  private error: Error | undefined;
  private imported = 0;
  private bodies: BodyFetcher | undefined;
  private readonly wakeup = new Wakeup();
  private rejectFailure: (error: Error) => void = () => undefined;
  private readonly failure = new Promise<never>((_, reject) => {
    this.rejectFailure = reject;
  });

  constructor(
    private readonly deps: SyncRunDeps,
    readonly peer: PeerId,
  ) {
    this.failure.catch(() => undefined);
  }

  /** Runs to the end; never throws (the error is in the result). */
  async run(): Promise<SyncRunResult> {
    try {
      const status = this.deps.network.peers().find((p) => p.id === this.peer)?.status;
      if (!status) throw new SyncError({code: SyncErrorCode.PEER_GONE, peer: this.peer});
      this.deps.target(status.bestNumber);
      const ancestor = await this.guard(
        findCommonAncestor({
          network: this.deps.network,
          chain: this.deps.chain,
          peer: this.peer,
          peerBestNumber: status.bestNumber,
          windowSize: this.deps.options.headersPerRequest,
        }),
      );
      this.deps.logger?.debug({peer: this.peer, ancestor: ancestor.number}, "common ancestor");
      const forkBelow = this.forkBelowRetention(ancestor);
      this.bodies = new BodyFetcher({
        network: this.deps.network,
        syncPeer: this.peer,
        bodiesPerRequest: this.deps.options.bodiesPerRequest,
        parallelRequests: this.deps.options.parallelBodyRequests,
        senderRecovery: this.deps.senderRecovery,
        logger: this.deps.logger,
      });
      await Promise.all([
        this.headerLoop(ancestor, forkBelow).catch((e) => this.fail(e)),
        this.importLoop().catch((e) => this.fail(e)),
      ]);
    } catch (e) {
      if (e instanceof SyncError && e.type.code === SyncErrorCode.UNEXPECTED_HEADERS) {
        this.deps.network.report(this.peer, PeerEvent.UNEXPECTED_MESSAGE);
      }
      this.fail(e);
    } finally {
      this.bodies?.close(new SyncError({code: SyncErrorCode.STOPPED}));
    }
    const error = this.error ?? this.endError;
    return error ? {peer: this.peer, imported: this.imported, error} : {peer: this.peer, imported: this.imported};
  }

  /** Ends the run: requests in flight are abandoned, the import in progress finishes. */
  stop(): void {
    this.fail(new SyncError({code: SyncErrorCode.STOPPED}));
  }

  private fail(e: unknown): void {
    if (this.error) return;
    this.error = e instanceof Error ? e : new Error(String(e));
    this.bodies?.close(this.error);
    this.rejectFailure(this.error);
    this.wakeup.notify();
  }

  /** `promise`, or the run's error as soon as the run fails. */
  private guard<T>(promise: Promise<T>): Promise<T> {
    return Promise.race([promise, this.failure]);
  }

  private get window(): number {
    const {headersPerRequest, bodiesPerRequest, parallelBodyRequests} = this.deps.options;
    return 2 * Math.max(headersPerRequest, bodiesPerRequest * parallelBodyRequests);
  }

  /** `forkBelow`: the branch forks below the states kept, refused after its first headers are checked. */
  private async headerLoop(ancestor: BlockHeader, forkBelow: SyncError | undefined): Promise<void> {
    const {network, options, chainspec} = this.deps;
    const {peer} = this;
    let parent = ancestor;
    try {
      while (!this.error) {
        while (this.headers.length >= this.window && !this.error) await this.guard(this.wakeup.wait());
        const start = parent.number + 1;
        const count = options.headersPerRequest;
        const batch = await this.guard(
          requestFromPeer(peer, "headers by number", () => network.getHeadersByNumber(peer, start, count)),
        );
        const {valid, error} = checkHeaderBatch(batch.slice(0, count), parent, {
          peer,
          chainspec,
          nowSeconds: this.deps.nowSeconds(),
        });
        if (forkBelow) throw this.refuseBranch(forkBelow, error);
        if (valid.length > 0) {
          this.headers.push(...valid);
          this.bodies?.enqueue(valid);
          parent = valid.at(-1) as BlockHeader;
          this.deps.target(parent.number);
          this.wakeup.notify();
        }
        if (error) {
          this.rejectHeaders(error);
          return;
        }
        // Fewer than asked: the peer has no more for now (blocks it mines meanwhile: the next run).
        if (batch.length < count) return;
      }
    } finally {
      this.headersDone = true;
      this.wakeup.notify();
    }
  }

  /** Scores the peer for a header batch that `checkHeaderBatch` refused; the run ends after the checked headers. */
  private rejectHeaders(error: SyncError): void {
    this.endError = error;
    if (error.type.code === SyncErrorCode.INVALID_HEADER) {
      this.deps.network.report(this.peer, PeerEvent.INVALID_HEADER);
    } else if (error.type.code === SyncErrorCode.UNEXPECTED_HEADERS) {
      this.deps.network.report(this.peer, PeerEvent.UNEXPECTED_MESSAGE);
    }
    this.deps.logger?.warn({peer: this.peer, code: error.code, detail: error.message}, "sync headers refused");
  }

  private async importLoop(): Promise<void> {
    while (!this.error) {
      const header = this.headers[0];
      if (!header) {
        if (this.headersDone) return;
        await this.guard(this.wakeup.wait());
        continue;
      }
      const bodies = this.bodies as BodyFetcher;
      const fetched = await this.guard(bodies.take(header));
      const recoveryError = await this.guard(fetched.sendersRecovered);
      if (recoveryError) {
        this.deps.logger?.warn(
          {number: header.number, detail: errorDetail(recoveryError)},
          "sender recovery ahead failed: the import recovers the block's senders",
        );
      }
      const block = new Block(header, fetched.body.transactions, fetched.body.uncles);
      this.deps.beforeImport(block.hash());
      const result = await this.deps.chain.importBlock(block);
      if (!this.accepted(header, fetched, result)) continue;
      this.headers.shift();
      this.wakeup.notify();
    }
  }

  /** Whether the import moved on; otherwise the body was asked again or the run failed. */
  private accepted(header: BlockHeader, fetched: FetchedBody, result: ImportResult): boolean {
    switch (result.kind) {
      case ImportResultKind.IMPORTED_BEST:
      case ImportResultKind.IMPORTED_NOT_BEST:
        this.imported++;
        this.deps.imported(header.number);
        return true;
      case ImportResultKind.EXIST:
        return true;
      case ImportResultKind.NO_PARENT:
        this.fail(new SyncError({code: SyncErrorCode.UNEXPECTED_IMPORT, number: header.number, kind: result.kind}));
        return false;
      case ImportResultKind.INVALID_BLOCK:
        this.invalidBlock(header, fetched, result.error);
        return false;
      case ImportResultKind.PARENT_STATE_PRUNED:
        // The window moved past the branch while the run imported it (the head moved meanwhile).
        this.fail(this.branchRefused(header.number, this.deps.chain.oldestStateBlock()));
        return false;
    }
  }

  /**
   * FORK_BELOW_RETENTION when the branch after `ancestor` forks below the oldest state kept: its first
   * block could not be executed (docs/operations.md §12).
   */
  private forkBelowRetention(ancestor: BlockHeader): SyncError | undefined {
    const oldest = this.deps.chain.oldestStateBlock();
    if (ancestor.number >= oldest) return undefined;
    return this.branchRefused(ancestor.number + 1, oldest);
  }

  private branchRefused(number: number, oldestBlock: number): SyncError {
    return new SyncError({code: SyncErrorCode.FORK_BELOW_RETENTION, peer: this.peer, number, oldestBlock});
  }

  /**
   * Ends the run on a branch below the states kept, before any body is fetched: a peer whose first
   * headers of it are invalid is blamed as in any run (`headersError`); otherwise it is not reported,
   * its branch may be valid (real proof of work), which this node cannot execute.
   */
  private refuseBranch(forkBelow: SyncError, headersError: SyncError | undefined): SyncError {
    if (!headersError) return forkBelow;
    this.rejectHeaders(headersError);
    return headersError;
  }

  private invalidBlock(header: BlockHeader, fetched: FetchedBody, error: Error): void {
    const {network} = this.deps;
    const cause = errorCode(error);
    const fault = importFault(cause);
    const context = {peer: this.peer, bodyPeer: fetched.peer, number: header.number, cause, fault};
    this.deps.logger?.warn(context, "sync import refused a block");
    const type = {peer: this.peer, number: header.number, cause, detail: errorDetail(error)};
    switch (fault) {
      case "body":
        network.report(fetched.peer, PeerEvent.INVALID_BLOCK);
        this.bodies?.refetch(header, fetched.peer);
        return;
      case "header":
        network.report(this.peer, PeerEvent.INVALID_HEADER);
        this.fail(new SyncError({code: SyncErrorCode.INVALID_HEADER, ...type}));
        return;
      case "block":
        network.report(this.peer, PeerEvent.INVALID_BLOCK);
        if (fetched.peer !== this.peer) network.report(fetched.peer, PeerEvent.INVALID_BLOCK);
        this.fail(new SyncError({code: SyncErrorCode.INVALID_BLOCK, ...type}));
        return;
    }
  }
}
