/**
 * Keeps the connections to the bootnodes: dials each one that has no connection every
 * `intervalMs`, and shortly after one is lost. libp2p's bootstrap discovery makes the first dials;
 * this redials for as long as the host runs (a banned bootnode is not dialled: the gater refuses).
 */
import {peerIdFromString} from "@libp2p/peer-id";
import {type Multiaddr, multiaddr} from "@multiformats/multiaddr";
import type {Logger} from "@xchain/utils";
import {ipOf, peerIdIn} from "./address.ts";
import type {Host} from "./context.ts";

export const BOOTNODE_REDIAL_INTERVAL_MS = 15_000;
export const BOOTNODE_REDIAL_DELAY_MS = 1_000;

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
  dialing: boolean;
}

export class BootnodeKeeper {
  private readonly bootnodes: Bootnode[];
  private interval?: NodeJS.Timeout;
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly host: Host,
    addresses: readonly string[],
    private readonly log: Logger,
    private readonly intervalMs = BOOTNODE_REDIAL_INTERVAL_MS,
  ) {
    this.bootnodes = addresses.flatMap((text) => {
      const address = multiaddr(text);
      const peer = peerIdIn(address);
      return peer ? [{address, peer, dialing: false}] : [];
    });
  }

  start(): void {
    if (this.bootnodes.length === 0) return;
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
  }

  private redialAll(): void {
    if (this.stopped || this.host.status !== "started") return;
    for (const bootnode of this.bootnodes) {
      if (bootnode.dialing || bootnode.peer === this.host.peerId.toString()) continue;
      if (this.host.getConnections().some((c) => c.remotePeer.toString() === bootnode.peer)) continue;
      bootnode.dialing = true;
      this.host
        .dial(bootnode.address)
        .catch((e: unknown) =>
          this.log.debug({bootnode: bootnode.address.toString(), err: String(e)}, "bootnode dial failed"),
        )
        .finally(() => {
          bootnode.dialing = false;
        });
    }
  }
}
