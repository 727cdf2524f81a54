/**
 * `GET /health` and `GET /ready` (docs/rpc.md §4.1): the probes of load balancers and Kubernetes,
 * served on the RPC HTTP port and on the node's metrics port with the same answers. `/health` is
 * 200 while the process answers at all; `/ready` is 200 when the probe says so, else 503 with the
 * reason.
 */
import type {HealthProbe} from "../deps.ts";

/** A probe's answer: HTTP status and JSON body. */
export interface HealthAnswer {
  status: number;
  body: string;
}

/** A probe that is always ready (a server given none). */
export const ALWAYS_READY: HealthProbe = {readiness: () => ({ready: true})};

/** The answer to a GET of `url` when it is `/health` or `/ready` (any query ignored); undefined for other paths. */
export function healthAnswer(url: string | undefined, probe: HealthProbe): HealthAnswer | undefined {
  const path = url?.split("?", 1)[0];
  if (path === "/health") return {status: 200, body: JSON.stringify({status: "ok"})};
  if (path !== "/ready") return undefined;
  const readiness = probe.readiness();
  return readiness.ready
    ? {status: 200, body: JSON.stringify({status: "ready"})}
    : {status: 503, body: JSON.stringify({status: "not ready", reason: readiness.reason})};
}
