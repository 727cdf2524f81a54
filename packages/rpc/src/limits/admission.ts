/**
 * Admission: the one interface through which a transport learns whom a request runs for
 * (docs/gateway.md). The API-key gateway admits by the key in the URL path; without it every request
 * is admitted under the node's own limits and counted by its client address (`IpLimits`). Either
 * way the transport gets a `Sender`: the request's `Principal` with the rate and connection limits
 * the transport applies before anything runs.
 */
import type {RpcClient} from "../jsonrpc/client.ts";
import type {RpcError} from "../jsonrpc/errors.ts";
import type {Principal, PrincipalConnection, RequestLimits} from "../jsonrpc/principal.ts";
import type {IpLimits} from "./ipLimits.ts";
import type {RateRefusal} from "./rateLimit.ts";

/** A principal as the transport sees it: what it may call, and its rate and connection limits. */
export interface Sender extends Principal {
  /** The client the per-client limits count a request of `client`'s connection as (a key's requests count together). */
  clientOf(client: RpcClient): RpcClient;
  /**
   * Takes a body's tokens (`raw` the parsed body, undefined for one refused before it runs,
   * docs/gateway.md §3); the refusal when the sender is over its rate.
   */
  checkRate(raw: unknown, client: RpcClient): RateRefusal | undefined;
  /** Why it may not open one more WebSocket connection (-32005, HTTP 429), undefined when it may. */
  connectionRefusal(): RpcError | undefined;
  /** Counts an open WebSocket connection; `revoke` is called when the sender loses its right (the connection answers, then closes). */
  attach(connection: PrincipalConnection, revoke: () => void): void;
}

/** Who may send requests. */
export interface Admission {
  /** The sender presenting `url` (the request's path), or the -32001 error it is refused with. */
  admit(url: string | undefined): Sender | RpcError;
}

const NO_CONNECTIONS: readonly PrincipalConnection[] = [];

/** Every request admitted under the node's limits, counted by client address (no gateway). */
export class OpenAdmission implements Admission {
  private readonly sender: Sender;

  /** `addressLimits`: the per-address rate (docs/gateway.md §6); absent, no rate applies. */
  constructor(limits: RequestLimits, addressLimits?: IpLimits) {
    this.sender = {
      id: undefined,
      requestLimits: limits,
      refusal: () => undefined,
      openConnections: () => NO_CONNECTIONS,
      clientOf: (client) => client,
      checkRate: addressLimits ? (raw, client) => addressLimits.checkRate(client.address, raw) : () => undefined,
      connectionRefusal: () => undefined,
      attach: () => undefined,
    };
  }

  admit(): Sender {
    return this.sender;
  }
}
