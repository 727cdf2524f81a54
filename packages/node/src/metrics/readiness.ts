/**
 * The readiness rule of `GET /ready` (docs/operations.md §3): the database can be read and written (no
 * damage met, the disk not full), a peer has been seen when bootnodes are configured, the head is
 * recent, and the node is not far behind: neither the heaviest head its peers announce nor the head
 * a running sync goes to is more than `readyMaxBlocksBehind` blocks ahead. A peer whose announced
 * total difficulty is not above ours is not ahead, whatever its number (a longer, lighter branch is
 * not one we would follow). A node whose built-in miner runs makes its own head, so its age is not
 * checked there.
 */
import type {HealthProbe, Readiness} from "@xchain/rpc";
import type {MetricsOptions} from "../options.ts";

/** What the rule reads. */
export interface ReadinessSources {
  /** The head's number, timestamp (seconds) and total difficulty. */
  head(): {number: number; timestamp: number; totalDifficulty: bigint};
  /** Whether the built-in miner runs. */
  isMining(): boolean;
  /** The head a connected peer announces with the highest total difficulty; undefined without p2p or peers. */
  bestPeer(): AnnouncedHead | undefined;
  /** The head number a running sync goes to; undefined when no sync runs. */
  syncTarget(): number | undefined;
  /** Bootnodes are configured and no peer has been seen yet (the node does not know the network's head). */
  awaitingFirstPeer(): boolean;
  /** Milliseconds since the epoch. */
  now(): number;
  /** Why the database cannot serve or store now (damage met, a full disk), if it cannot. */
  storageFault(): string | undefined;
}

/** A head a peer announced (its status). */
export interface AnnouncedHead {
  number: number;
  totalDifficulty: bigint;
}

/** The probe of `GET /ready`. */
export function createReadinessProbe(
  opts: Pick<MetricsOptions, "readyMaxHeadAgeSeconds" | "readyMaxBlocksBehind">,
  sources: ReadinessSources,
): HealthProbe {
  return {
    readiness(): Readiness {
      const storageFault = sources.storageFault();
      if (storageFault !== undefined) return {ready: false, reason: storageFault};
      if (sources.awaitingFirstPeer()) {
        return {
          ready: false,
          reason: "no peer seen yet: none of p2p.bootnodes has answered, so the network's head is unknown",
        };
      }
      const head = sources.head();
      const age = Math.floor(sources.now() / 1000) - head.timestamp;
      const peer = sources.bestPeer();
      const best = peer?.number;
      if (!sources.isMining() && age > opts.readyMaxHeadAgeSeconds) {
        // A genesis block's age is the network's, not a stall's: say where syncing stands instead.
        if (head.number === 0) return {ready: false, reason: stillAtGenesis(best)};
        return {
          ready: false,
          reason: `head block ${head.number} is ${age} s old (metrics.readyMaxHeadAgeSeconds is ${opts.readyMaxHeadAgeSeconds})`,
        };
      }
      const behind = behindReason(opts.readyMaxBlocksBehind, head, peer, sources.syncTarget());
      if (behind === undefined) return {ready: true};
      return {ready: false, reason: head.number === 0 ? stillAtGenesis(best) : behind};
    },
  };
}

/** Why a node is too far behind its heaviest peer or its sync's target; undefined when it is not. */
function behindReason(
  maxBehind: number,
  head: {number: number; totalDifficulty: bigint},
  peer: AnnouncedHead | undefined,
  syncTarget: number | undefined,
): string | undefined {
  const limit = `metrics.readyMaxBlocksBehind is ${maxBehind}`;
  if (peer !== undefined && peer.totalDifficulty > head.totalDifficulty && peer.number - head.number > maxBehind) {
    return `head block ${head.number} is ${peer.number - head.number} blocks behind the best peer's ${peer.number} (${limit})`;
  }
  if (syncTarget !== undefined && syncTarget - head.number > maxBehind) {
    return `syncing: head block ${head.number} is ${syncTarget - head.number} blocks behind the sync's target ${syncTarget} (${limit})`;
  }
  return undefined;
}

/** Why a node still at block 0 is not ready, by what its peers report (`best`: none connected when undefined). */
function stillAtGenesis(best: number | undefined): string {
  if (best === undefined) return "still at genesis: no peer connected, so syncing has not started";
  if (best === 0) return "still at genesis, as are the connected peers: no block has been mined on this network yet";
  return `still at genesis: syncing from peers, the best of which is at block ${best}`;
}
