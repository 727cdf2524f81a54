/** The `[metrics]` table: `MetricsOptions` of the node (docs/operations.md). */
import type {ConfigKey} from "../configKey.ts";

/** The Prometheus listener and the readiness rule of `GET /ready`. */
export const metricsKeys: readonly ConfigKey[] = [
  {
    key: "metrics.enabled",
    kind: {type: "boolean"},
    description: "serve Prometheus metrics (/metrics), /health and /ready on a listener of their own",
  },
  {
    key: "metrics.host",
    kind: {type: "string"},
    placeholder: "host",
    description: "interface the metrics listener binds (0.0.0.0 exposes it to the network)",
  },
  {
    key: "metrics.port",
    kind: {type: "integer", min: 0, max: 65535},
    placeholder: "port",
    description: "metrics port (0 picks a free one)",
  },
  {
    key: "metrics.readyMaxHeadAgeSeconds",
    kind: {type: "integer", min: 1, max: 365 * 24 * 60 * 60},
    description:
      "GET /ready fails when the head block is older than this, in seconds (not checked while the built-in miner runs)",
  },
  {
    key: "metrics.readyMaxBlocksBehind",
    kind: {type: "integer", min: 0, max: 1_000_000_000},
    description:
      "GET /ready fails when the node is more than this many blocks behind its heaviest peer's head or a running sync's target",
  },
];
