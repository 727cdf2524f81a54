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
      if (!sources.isMining() && age > opts.readyMaxHeadAgeSeconds) {
        return {
          ready: false,
          reason: `head block ${head.number} is ${age} s old (metrics.readyMaxHeadAgeSeconds is ${opts.readyMaxHeadAgeSeconds})`,
        };
      }
      const best = sources.bestPeerNumber();
      if (best !== undefined && best - head.number > opts.readyMaxBlocksBehind) {
        return {
          ready: false,
          reason: `head block ${head.number} is ${best - head.number} blocks behind the best peer's ${best} (metrics.readyMaxBlocksBehind is ${opts.readyMaxBlocksBehind})`,
        };
      }
      return {ready: true};
    },
  };
}
