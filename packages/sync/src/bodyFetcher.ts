/**
 * Fetches the bodies of checked headers from every peer that can serve them, `parallelRequests`
 * requests in flight, and hands them to the importer in any order it asks. A chunk goes to the
 * eligible peer with the fewest requests in flight (peers it has not failed with first): the sync
 * peer, and any peer whose best block is at least as high as the chunk, unless it already lacked a
 * block at or below the chunk (it is on another branch). A failed request goes to another peer; a
 * peer that fails three times or disconnects gets no more requests, and neither does one that
 * served a body whose uncles are not the ones its header commits to (reported INVALID_BLOCK) or
 * whose body the chain refused (`refetch`). Transactions are checked by the chain's import; their
 * senders are recovered on another core as they arrive, when a `senderRecovery` is given.
 */
import {type BlockBody, PeerEvent, type PeerId, type PeerInfo, type PeerNetwork} from "@xchain/p2p";
import {type BlockHeader, unclesHash} from "@xchain/primitives";
import {bytesToHex, equalBytes, type Logger} from "@xchain/utils";
import {errorDetail, SyncError, SyncErrorCode} from "./errors.ts";
import type {SyncSenderRecovery} from "./types.ts";

/** A body and the peer that served it. */
export interface FetchedBody {
  body: BlockBody;
  peer: PeerId;
  /**
   * Settles when the senders of its transactions are recovered (`BodyFetcherDeps.senderRecovery`),
   * with the recovery's error if it failed (then the import recovers them).
   */
  sendersRecovered: Promise<Error | undefined>;
}

/** What the fetcher needs. */
export interface BodyFetcherDeps {
  network: PeerNetwork;
  /** The peer the headers come from: it has every block. */
  syncPeer: PeerId;
  bodiesPerRequest: number;
  parallelRequests: number;
  /** Recovers the senders of each body as it arrives, on another core; default none. */
  senderRecovery?: SyncSenderRecovery;
  logger?: Logger;
}

/** Failed requests after which a peer gets no more body requests in this run. */
const MAX_PEER_FAILURES = 3;
const NOTHING_TO_RECOVER: Promise<Error | undefined> = Promise.resolve(undefined);
/** Bodies of one block the chain may refuse before the run gives up on it. */
const MAX_BODY_ATTEMPTS = 4;

interface Chunk {
  headers: BlockHeader[];
  /** Peers that failed this chunk (asked again only when no other peer can serve it). */
  tried: Set<PeerId>;
}

interface Waiter {
  resolve: (fetched: FetchedBody) => void;
  reject: (error: Error) => void;
}

/** One run's body downloads. */
export class BodyFetcher {
  private readonly queue: Chunk[] = [];
  private readonly fetched = new Map<string, FetchedBody>();
  private readonly waiters = new Map<string, Waiter>();
  private readonly inFlight = new Map<PeerId, number>();
  private inFlightTotal = 0;
  private readonly excluded = new Set<PeerId>();
  private readonly failures = new Map<PeerId, number>();
  /** The lowest block number each peer did not have. */
  private readonly missingFrom = new Map<PeerId, number>();
  private readonly attempts = new Map<string, number>();
  private rotation = 0;
  private error: Error | undefined;

  constructor(private readonly deps: BodyFetcherDeps) {}

  /** Queues the bodies of `headers` (consecutive, oldest first). */
  enqueue(headers: readonly BlockHeader[]): void {
    const size = this.deps.bodiesPerRequest;
    for (let i = 0; i < headers.length; i += size) {
      this.requeue({headers: headers.slice(i, i + size), tried: new Set()});
    }
    this.pump();
  }

  /** The body of a queued header, once fetched. */
  take(header: BlockHeader): Promise<FetchedBody> {
    if (this.error) return Promise.reject(this.error);
    const key = bytesToHex(header.hash());
    const ready = this.fetched.get(key);
    if (ready) {
      this.fetched.delete(key);
      return Promise.resolve(ready);
    }
    return new Promise((resolve, reject) => this.waiters.set(key, {resolve, reject}));
  }

  /**
   * The chain refused the body `peer` served for `header`: asks another peer, and `peer` no more in
   * this run. After too many refused bodies the fetcher fails with BODY_UNAVAILABLE.
   */
  refetch(header: BlockHeader, peer: PeerId): void {
    this.excluded.add(peer);
    const key = bytesToHex(header.hash());
    const attempts = (this.attempts.get(key) ?? 1) + 1;
    this.attempts.set(key, attempts);
    if (attempts > MAX_BODY_ATTEMPTS) {
      this.close(new SyncError({code: SyncErrorCode.BODY_UNAVAILABLE, number: header.number, attempts}));
      return;
    }
    this.requeue({headers: [header], tried: new Set([peer])});
    this.pump();
  }

  /** Ends the fetcher: pending and later `take`s reject with `error`; answers in flight are dropped. */
  close(error: Error): void {
    if (this.error) return;
    this.error = error;
    for (const waiter of this.waiters.values()) waiter.reject(error);
    this.waiters.clear();
    this.fetched.clear();
    this.queue.length = 0;
  }

  /** Sends queued chunks while fewer than `parallelRequests` are in flight. */
  private pump(): void {
    while (!this.error && this.inFlightTotal < this.deps.parallelRequests && this.queue.length > 0) {
      const chunk = this.queue[0] as Chunk;
      const peer = this.pickPeer(chunk);
      if (peer === undefined) {
        // Nobody can serve the oldest chunk now; answers in flight may still change that.
        if (this.inFlightTotal === 0) this.close(this.unavailable(chunk));
        return;
      }
      this.queue.shift();
      void this.request(chunk, peer);
    }
  }

  private unavailable(chunk: Chunk): SyncError {
    const syncPeer = this.deps.syncPeer;
    const connected = this.deps.network.peers().some((p) => p.id === syncPeer);
    if (!connected) return new SyncError({code: SyncErrorCode.PEER_GONE, peer: syncPeer});
    const first = chunk.headers[0] as BlockHeader;
    const attempts = this.attempts.get(bytesToHex(first.hash())) ?? chunk.tried.size;
    return new SyncError({code: SyncErrorCode.BODY_UNAVAILABLE, number: first.number, attempts});
  }

  private pickPeer(chunk: Chunk): PeerId | undefined {
    const eligible = this.deps.network.peers().filter((peer) => this.canServe(peer, chunk));
    const untried = eligible.filter((peer) => !chunk.tried.has(peer.id));
    const candidates = untried.length > 0 ? untried : eligible;
    if (candidates.length === 0) return undefined;
    let best: PeerInfo | undefined;
    const start = this.rotation++ % candidates.length;
    for (let i = 0; i < candidates.length; i++) {
      const peer = candidates[(start + i) % candidates.length] as PeerInfo;
      if (!best || (this.inFlight.get(peer.id) ?? 0) < (this.inFlight.get(best.id) ?? 0)) best = peer;
    }
    return best?.id;
  }

  private canServe(peer: PeerInfo, chunk: Chunk): boolean {
    if (this.excluded.has(peer.id)) return false;
    const last = (chunk.headers.at(-1) as BlockHeader).number;
    if (last >= (this.missingFrom.get(peer.id) ?? Number.POSITIVE_INFINITY)) return false;
    return peer.id === this.deps.syncPeer || peer.status.bestNumber >= last;
  }

  private async request(chunk: Chunk, peer: PeerId): Promise<void> {
    this.inFlightTotal++;
    this.inFlight.set(peer, (this.inFlight.get(peer) ?? 0) + 1);
    try {
      const hashes = chunk.headers.map((header) => header.hash());
      const bodies = await this.deps.network.getBodies(peer, hashes);
      if (!this.error) this.accept(chunk, peer, bodies);
    } catch (e) {
      if (!this.error) this.failed(chunk, peer, e);
    } finally {
      this.inFlightTotal--;
      this.inFlight.set(peer, (this.inFlight.get(peer) ?? 1) - 1);
      this.pump();
    }
  }

  private accept(chunk: Chunk, peer: PeerId, bodies: BlockBody[]): void {
    const {headers} = chunk;
    for (const [i, body] of bodies.slice(0, headers.length).entries()) {
      const header = headers[i] as BlockHeader;
      if (!unclesMatch(header, body)) {
        this.deps.logger?.warn({peer, number: header.number}, "body whose uncles are not its header's");
        this.deps.network.report(peer, PeerEvent.INVALID_BLOCK);
        this.excluded.add(peer);
        this.requeue({headers: headers.slice(i), tried: new Set([...chunk.tried, peer])});
        return;
      }
      this.deliver(header, {body, peer, sendersRecovered: this.recoverSenders(body)});
    }
    if (bodies.length < headers.length) {
      const missing = headers[bodies.length] as BlockHeader;
      this.missingFrom.set(peer, Math.min(this.missingFrom.get(peer) ?? missing.number, missing.number));
      this.requeue({headers: headers.slice(bodies.length), tried: new Set([...chunk.tried, peer])});
    }
  }

  private failed(chunk: Chunk, peer: PeerId, error: unknown): void {
    const failures = (this.failures.get(peer) ?? 0) + 1;
    this.failures.set(peer, failures);
    const gone = !this.deps.network.peers().some((p) => p.id === peer);
    if (gone || failures >= MAX_PEER_FAILURES) this.excluded.add(peer);
    this.deps.logger?.debug({peer, failures, gone, detail: errorDetail(error)}, "body request failed");
    chunk.tried.add(peer);
    this.requeue(chunk);
  }

  private recoverSenders(body: BlockBody): Promise<Error | undefined> {
    const recovery = this.deps.senderRecovery;
    if (!recovery) return NOTHING_TO_RECOVER;
    return recovery.recover(body.transactions).then(
      () => undefined,
      (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
    );
  }

  private deliver(header: BlockHeader, fetched: FetchedBody): void {
    const key = bytesToHex(header.hash());
    const waiter = this.waiters.get(key);
    if (waiter) {
      this.waiters.delete(key);
      waiter.resolve(fetched);
    } else {
      this.fetched.set(key, fetched);
    }
  }

  /** Queues a chunk in block order (older chunks are sent first: the importer waits for them). */
  private requeue(chunk: Chunk): void {
    const first = (chunk.headers[0] as BlockHeader).number;
    const index = this.queue.findIndex((queued) => (queued.headers[0] as BlockHeader).number > first);
    this.queue.splice(index === -1 ? this.queue.length : index, 0, chunk);
  }
}

/** Whether a body's uncles are the ones its header commits to (count and hash). */
function unclesMatch(header: BlockHeader, body: BlockBody): boolean {
  return body.uncles.length === header.uncleCount && equalBytes(unclesHash(body.uncles), header.unclesHash);
}
