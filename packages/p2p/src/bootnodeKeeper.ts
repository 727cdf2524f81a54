/**
 * Keeps the connections to the bootnodes and to the peers `admin_addPeer` adds, for as long as the host
 * runs (docs/p2p.md, "Bootnodes"). Each one not connected is dialled when it is due: at start, shortly
 * after its connection is lost, and after a failure with a bounded exponential backoff (500 ms doubling
 * up to 4 s), so that a restarted bootnode is back within a few seconds. Dials run in the background, at
 * most `BOOTNODE_DIAL_CONCURRENCY` at once, so start-up never waits on them and a long list does not
 * flood libp2p's dial queue. A failure is logged at warn with its cause (refused, unreachable, timed out,
 * another peer id at that address, another network) once per cause: the same failure again is silent
 * until the bootnode connects or fails otherwise. A banned bootnode is not dialled: the gater refuses.
 */
import {type Multiaddr, multiaddr} from "@multiformats/multiaddr";
import type {Logger} from "@xchain/utils";
import {peerIdIn} from "./address.ts";
import type {Host} from "./context.ts";
import {type BootnodeFailure, dialFailureOf, failureKey} from "./dialFailure.ts";

/** Bootnode dials in flight at once. */
export const BOOTNODE_DIAL_CONCURRENCY = 8;

/** When dials are due (docs/p2p.md, "Bootnodes"). */
export interface RedialTiming {
  /** The first redial after a lost connection or a failure. */
  minDelayMs: number;
  /** The longest wait between two dials of a bootnode that keeps failing. */
  maxDelayMs: number;
  /** How often due dials are looked for. */
  tickMs: number;
}

export const DEFAULT_REDIAL_TIMING: RedialTiming = {minDelayMs: 500, maxDelayMs: 4_000, tickMs: 250};

/** The wait before the next dial after `failures` failures in a row: doubling from `minDelayMs`, capped. */
export function redialDelay(failures: number, timing: RedialTiming): number {
  const doubled = timing.minDelayMs * 2 ** Math.min(Math.max(failures - 1, 0), 30);
  // Up to a fifth less, so that the nodes that lost one bootnode at once do not all redial together.
  return Math.min(doubled, timing.maxDelayMs) * (1 - Math.random() * 0.2);
}

interface KeptPeer {
  text: string;
  address: Multiaddr;
  peer: string;
  /** A configured bootnode (else added by `admin_addPeer`): what the log calls it. */
  bootnode: boolean;
  /** Queued or being dialled. */
  dialing: boolean;
  /** A dial of ours ended and its verdict (a failure or the handshake) has not come yet. */
  awaitingVerdict: boolean;
  /** Failures since the last completed handshake. */
  failures: number;
  /** When the next dial is due (ms since the epoch). */
  dueAt: number;
  /**
   * The causes warned about (`failureKey`) since the peer last completed a handshake: each once, so
   * that two causes taking turns (a refused handshake seen from either side) cannot flood the log.
   */
  warned: Set<string>;
}

/** What the keeper uses of the libp2p host. */
export type BootnodeHost = Pick<Host, "dial" | "getConnections" | "peerId" | "status">;

export class BootnodeKeeper {
  private readonly kept: KeptPeer[] = [];
  private ticker?: NodeJS.Timeout;
  private readonly waiting: KeptPeer[] = [];
  private inFlight = 0;
  private stopped = false;

  constructor(
    private readonly host: BootnodeHost,
    addresses: readonly string[],
    private readonly log: Logger,
    private readonly timing: RedialTiming = DEFAULT_REDIAL_TIMING,
    private readonly concurrency = BOOTNODE_DIAL_CONCURRENCY,
  ) {
    for (const text of addresses) this.keep(text, true);
  }

  /** Starts the first dials (in the background: it returns at once) and the redial timer. */
  start(): void {
    this.ticker = setInterval(() => this.dialDue(), this.timing.tickMs);
    this.ticker.unref();
    this.dialDue();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.ticker);
    for (const kept of this.waiting.splice(0)) kept.dialing = false;
  }

  /**
   * Keeps `text` (a multiaddr ending in `/p2p/<peer id>`, checked by the caller) connected from now on
   * and dials it at once unless it is connected; false when `limit` peers are already kept.
   */
  add(text: string, limit: number): boolean {
    const address = multiaddr(text);
    const existing = this.kept.find((k) => k.address.equals(address));
    if (existing) {
      existing.dueAt = Date.now();
    } else {
      if (this.kept.filter((k) => !k.bootnode).length >= limit) return false;
      this.keep(text, false);
    }
    this.dialDue();
    return true;
  }

  /** Stops keeping every peer added for `peer` (a bootnode stays); whether there was one. */
  remove(peer: string): boolean {
    const before = this.kept.length;
    for (let i = this.kept.length - 1; i >= 0; i--) {
      const kept = this.kept[i] as KeptPeer;
      if (kept.peer !== peer || kept.bootnode) continue;
      this.kept.splice(i, 1);
      const queued = this.waiting.indexOf(kept);
      if (queued >= 0) this.waiting.splice(queued, 1);
    }
    return this.kept.length < before;
  }

  /** Whether `peer` is kept connected (a bootnode or an added peer). */
  keeps(peer: string): boolean {
    return this.kept.some((k) => k.peer === peer);
  }

  /** A peer's last connection closed: a kept one is redialled shortly (not before a backoff running). */
  lost(peer: string): void {
    for (const kept of this.of(peer)) kept.dueAt = Math.max(kept.dueAt, Date.now() + this.timing.minDelayMs);
  }

  /** A peer completed the status handshake: its failures are forgotten. */
  connected(peer: string): void {
    for (const kept of this.of(peer)) {
      kept.failures = 0;
      kept.awaitingVerdict = false;
      kept.warned.clear();
    }
  }

  /** The status handshake with a peer failed (`wrongNetwork`: another network, genesis or protocol). */
  handshakeFailed(peer: string, reason: string, wrongNetwork: boolean): void {
    const failure: BootnodeFailure = wrongNetwork
      ? {kind: "wrong network", detail: reason}
      : {kind: "handshake failed", detail: reason};
    for (const kept of this.of(peer)) this.failed(kept, failure);
  }

  private keep(text: string, bootnode: boolean): void {
    const address = multiaddr(text);
    const peer = peerIdIn(address);
    if (peer === undefined) return;
    this.kept.push({
      text,
      address,
      peer,
      bootnode,
      dialing: false,
      awaitingVerdict: false,
      failures: 0,
      warned: new Set(),
      dueAt: Date.now(),
    });
  }

  private of(peer: string): KeptPeer[] {
    return this.kept.filter((k) => k.peer === peer);
  }

  /** Queues a dial of every kept peer that is due and not connected, queued or being dialled. */
  private dialDue(): void {
    if (this.stopped || this.host.status !== "started") return;
    const now = Date.now();
    const self = this.host.peerId.toString();
    let connected: Set<string> | undefined;
    for (const kept of this.kept) {
      if (kept.dialing || kept.dueAt > now || kept.peer === self) continue;
      connected ??= new Set(this.host.getConnections().map((c) => c.remotePeer.toString()));
      if (connected.has(kept.peer)) continue;
      kept.dialing = true;
      this.waiting.push(kept);
    }
    this.pump();
  }

  /** Starts queued dials while fewer than `concurrency` are in flight. */
  private pump(): void {
    while (!this.stopped && this.inFlight < this.concurrency && this.waiting.length > 0) {
      const kept = this.waiting.shift() as KeptPeer;
      this.inFlight++;
      this.host
        .dial(kept.address)
        .then(
          () => {
            // Connected: the status handshake's verdict (connected or handshakeFailed) comes next.
            kept.awaitingVerdict = true;
          },
          (e: unknown) => {
            kept.awaitingVerdict = true;
            this.failed(kept, dialFailureOf(e));
          },
        )
        .finally(() => {
          kept.dialing = false;
          this.inFlight--;
          this.pump();
        });
    }
  }

  /** Schedules the next dial after a backoff and warns when the cause is new. */
  private failed(kept: KeptPeer, failure: BootnodeFailure): void {
    if (this.stopped) return;
    // One failure per dial of ours: both sides of a refused handshake report it.
    if (kept.awaitingVerdict) {
      kept.awaitingVerdict = false;
      kept.failures++;
    }
    const delay = redialDelay(Math.max(kept.failures, 1), this.timing);
    kept.dueAt = Math.max(kept.dueAt, Date.now() + delay);
    const key = failureKey(failure);
    if (kept.warned.has(key)) {
      this.log.debug({bootnode: kept.text, cause: failure.kind, err: failure.detail}, "bootnode dial failed again");
      return;
    }
    kept.warned.add(key);
    const what = kept.bootnode ? "bootnode" : "added peer";
    this.log.warn(
      {
        bootnode: kept.text,
        cause: failure.kind,
        ...(failure.foundPeerId === undefined ? {} : {foundPeerId: failure.foundPeerId, expectedPeerId: kept.peer}),
        retryMs: Math.round(delay),
      },
      `${what} ${kept.text} ${headline(failure)}; redialling every ${this.timing.maxDelayMs / 1000} s at most`,
    );
  }
}

function headline(failure: BootnodeFailure): string {
  switch (failure.kind) {
    case "peer id mismatch":
      return `has another peer id: ${failure.detail} (fix the /p2p/ part of its address)`;
    case "wrong network":
      return `is on another network: ${failure.detail}`;
    case "handshake failed":
      return `failed the status handshake: ${failure.detail}`;
    default:
      return `is not reachable: ${failure.detail}`;
  }
}
