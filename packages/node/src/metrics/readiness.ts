/**
 * The readiness rule of `GET /ready` (docs/operations.md): the database can be read and written (no
 * damage met, the disk not full), a peer has been seen when bootnodes are
 * configured, the head is recent, and with peers the node is not far behind the best head they report. A node whose built-in miner runs makes its
 * own head, so its age is not checked there.
 */
import type {HealthProbe, Readiness} from "@xchain/rpc";
import type {MetricsOptions} from "../options.ts";

/** What the rule reads. */
export interface ReadinessSources {
  /** The head's number and timestamp (seconds). */
  head(): {number: number; timestamp: number};
  /** Whether the built-in miner runs. */
  isMining(): boolean;
  /** The highest head a connected peer reports; undefined without p2p or peers. */
  bestPeerNumber(): number | undefined;
  /** Bootnodes are configured and no peer has been seen yet (the node does not know the network's head). */
  awaitingFirstPeer(): boolean;
  /** Milliseconds since the epoch. */
  now(): number;
  /** Why the database cannot serve or store now (damage met, a full disk), if it cannot. */
  storageFault(): string | undefined;
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
      const best = sources.bestPeerNumber();
      if (!sources.isMining() && age > opts.readyMaxHeadAgeSeconds) {
        // A genesis block's age is the network's, not a stall's: say where syncing stands instead.
        if (head.number === 0) return {ready: false, reason: stillAtGenesis(best)};
        return {
          ready: false,
          reason: `head block ${head.number} is ${age} s old (metrics.readyMaxHeadAgeSeconds is ${opts.readyMaxHeadAgeSeconds})`,
        };
      }
      if (best !== undefined && best - head.number > opts.readyMaxBlocksBehind) {
        if (head.number === 0) return {ready: false, reason: stillAtGenesis(best)};
        return {
          ready: false,
          reason: `head block ${head.number} is ${best - head.number} blocks behind the best peer's ${best} (metrics.readyMaxBlocksBehind is ${opts.readyMaxBlocksBehind})`,
        };
      }
      return {ready: true};
    },
  };
}

/** Why a node still at block 0 is not ready, by what its peers report (`best`: none connected when undefined). */
function stillAtGenesis(best: number | undefined): string {
  if (best === undefined) return "still at genesis: no peer connected, so syncing has not started";
  if (best === 0) return "still at genesis, as are the connected peers: no block has been mined on this network yet";
  return `still at genesis: syncing from peers, the best of which is at block ${best}`;
}
