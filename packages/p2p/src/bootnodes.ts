/**
 * Keeps the connections to the bootnodes: dials each one that has no connection at start, every
 * `intervalMs`, and shortly after one is lost, for as long as the host runs (a banned bootnode is
 * not dialled: the gater refuses). Dials run in the background, at most `BOOTNODE_DIAL_CONCURRENCY`
 * at once, so start-up never waits on them and a long list does not flood libp2p's dial queue.
 */
import {peerIdFromString} from "@libp2p/peer-id";
import {type Multiaddr, multiaddr} from "@multiformats/multiaddr";
import type {Logger} from "@xchain/utils";
import {ipOf, peerIdIn} from "./address.ts";
import type {Host} from "./context.ts";

export const BOOTNODE_REDIAL_INTERVAL_MS = 15_000;
export const BOOTNODE_REDIAL_DELAY_MS = 1_000;
/** Bootnode dials in flight at once. */
export const BOOTNODE_DIAL_CONCURRENCY = 8;
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

/** Who the bootnodes are: their peer ids and IP addresses (DNS multiaddrs have none). */
export interface TrustedPeers {
  peerIds: Set<string>;
  addresses: Set<string>;
}

/** The peer ids and IPs of bootnode multiaddrs: the gater lets them in past the inbound limits. */
export function trustedPeersOf(bootnodes: readonly string[]): TrustedPeers {
  const trusted: TrustedPeers = {peerIds: new Set(), addresses: new Set()};
  for (const text of bootnodes) {
    const address = multiaddr(text);
    const peer = peerIdIn(address);
    const ip = ipOf(address);
    if (peer !== undefined) trusted.peerIds.add(peer);
    if (ip !== undefined) trusted.addresses.add(ip);
  }
  return trusted;
}

/** Why `text` cannot be a bootnode (not a multiaddr, or no valid `/p2p/<peer id>` at its end), or undefined. */
export function bootnodeProblem(text: string): string | undefined {
  if (text.length > MAX_BOOTNODE_LENGTH) return `it has ${text.length} characters (at most ${MAX_BOOTNODE_LENGTH})`;
  let peer: string | undefined;
  try {
    peer = peerIdIn(multiaddr(text));
  } catch (e) {
    return (e as Error).message;
  }
  if (peer === undefined) return "it must end in /p2p/<peer id> (xchain p2p-id prints a node's)";
  try {
    peerIdFromString(peer);
  } catch {
    return `${peer} is not a peer id`;
  }
  return undefined;
}

interface Bootnode {
  address: Multiaddr;
  peer: string;
  /** Queued or being dialled. */
  dialing: boolean;
}

/** What the keeper uses of the libp2p host. */
export type BootnodeHost = Pick<Host, "dial" | "getConnections" | "peerId" | "status">;

export class BootnodeKeeper {
  private readonly bootnodes: Bootnode[];
  private interval?: NodeJS.Timeout;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly waiting: Bootnode[] = [];
  private inFlight = 0;
  private stopped = false;

  constructor(
    private readonly host: BootnodeHost,
    addresses: readonly string[],
    private readonly log: Logger,
    private readonly intervalMs = BOOTNODE_REDIAL_INTERVAL_MS,
    private readonly concurrency = BOOTNODE_DIAL_CONCURRENCY,
  ) {
    this.bootnodes = addresses.flatMap((text) => {
      const address = multiaddr(text);
      const peer = peerIdIn(address);
      return peer ? [{address, peer, dialing: false}] : [];
    });
  }

  /** Starts the first dials (in the background: it returns at once) and the redial timer. */
  start(): void {
    if (this.bootnodes.length === 0) return;
    this.redialAll();
    this.interval = setInterval(() => this.redialAll(), this.intervalMs);
    this.interval.unref();
  }

  /** Called when a peer's last connection closed: a lost bootnode is redialled shortly. */
  lost(peer: string): void {
    if (this.stopped || !this.bootnodes.some((b) => b.peer === peer)) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.redialAll();
    }, BOOTNODE_REDIAL_DELAY_MS);
    timer.unref();
    this.timers.add(timer);
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.interval);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const bootnode of this.waiting.splice(0)) bootnode.dialing = false;
  }

  /** Queues a dial of every bootnode not connected, queued or being dialled. */
  private redialAll(): void {
    if (this.stopped || this.host.status !== "started") return;
    const self = this.host.peerId.toString();
    const connected = new Set(this.host.getConnections().map((c) => c.remotePeer.toString()));
    for (const bootnode of this.bootnodes) {
      if (bootnode.dialing || bootnode.peer === self || connected.has(bootnode.peer)) continue;
      bootnode.dialing = true;
      this.waiting.push(bootnode);
    }
    this.pump();
  }

  /** Starts queued dials while fewer than `concurrency` are in flight. */
  private pump(): void {
    while (!this.stopped && this.inFlight < this.concurrency && this.waiting.length > 0) {
      const bootnode = this.waiting.shift() as Bootnode;
      this.inFlight++;
      this.host
        .dial(bootnode.address)
        .catch((e: unknown) =>
          this.log.debug({bootnode: bootnode.address.toString(), err: String(e)}, "bootnode dial failed"),
        )
        .finally(() => {
          bootnode.dialing = false;
          this.inFlight--;
          this.pump();
        });
    }
  }
}
