/**
 * The method registry: namespace tables flattened to wire names (`eth` + `getBalance` →
 * `eth_getBalance`, `rpc` + `discover` → `rpc.discover`), duplicates refused, and each method switched on or off from its module's
 * setting and the per-method lists of the options (rskj `rpc.modules`, design "RPC").
 */

import type {RpcClient} from "./client.ts";
import type {JsonSchema} from "./jsonSchema.ts";
import type {Principal, PrincipalConnection, RequestLimits} from "./principal.ts";
import type {ResponseBudget} from "./responseBudget.ts";

/** A push channel to one WebSocket client (subscriptions); absent over HTTP. */
export interface Connection extends PrincipalConnection {
  /** Sends a notification `{jsonrpc, method, params}`; dropped once the connection is closed. */
  notify(method: string, params: unknown): void;
  /** Runs `listener` once when the connection closes (subscriptions end). */
  onClose(listener: () => void): void;
}

/** What a handler knows about the request besides its parameters. */
export interface RequestContext {
  transport: "http" | "ws";
  /** Who sent it: per-client limits count by `client.key` (the API key's id when the gateway is on). */
  client: RpcClient;
  /** Whom it runs for: what it may call and under which limits (docs/gateway.md §2). */
  readonly principal: Principal;
  /** `principal.requestLimits`: the node's limits narrowed by the principal's. */
  readonly limits: RequestLimits;
  /** Aborted when the client goes away, the request times out or the server closes: long work should stop. */
  signal: AbortSignal;
  /**
   * Whether `signal` is aborted, read without making the signal (a transport makes it only when a
   * handler asks for it); absent, dispatch reads `signal`.
   */
  readonly aborted?: boolean;
  /**
   * The response bytes of the body (a batch as a whole): a handler building a large result reserves
   * its bytes as it goes, and stops when `reserve` throws (docs/rpc.md §8).
   */
  budget: ResponseBudget;
  connection?: Connection;
}

/** One positional parameter as `rpc.discover` documents it (docs/rpc.md §4.9). */
export interface ParamDescription {
  readonly name: string;
  readonly required: boolean;
  /** What its codec accepts; undefined when the codec does not describe itself. */
  readonly schema: JsonSchema | undefined;
}

/** One method as the dispatcher calls it; `method()` in params/ builds them from codecs and a handler. */
export interface RpcMethod {
  /** Set for a method registered only so that it answers -32601 with this reason. */
  readonly unsupported?: string;
  /**
   * A time budget above `requestTimeoutMs` (tracing, docs/rpc.md §8): a body that calls this method
   * runs under the longest budget of its methods. Set with `withTimeout`.
   */
  readonly timeoutMs?: number;
  /** Its positional parameters (set by `method()`); undefined for a stub that takes any. */
  readonly params?: readonly ParamDescription[];
  /** Its result's schema where the method declares one (`rpc.discover`). */
  readonly result?: JsonSchema;
  invoke(params: readonly unknown[], context: RequestContext): unknown;
}

/** `method` with its own time budget of `timeoutMs` (it can only raise the body's budget, docs/rpc.md §8). */
export function withTimeout(method: RpcMethod, timeoutMs: number): RpcMethod {
  return {...method, timeoutMs};
}

/** The methods of one namespace (or of one topic of it: `eth` is split over several files). */
export interface NamespaceMethods {
  namespace: string;
  methods: Record<string, RpcMethod>;
}

/** Which methods answer. */
export interface RegistryPolicy {
  isNamespaceEnabled(namespace: string): boolean;
  /** Methods switched on whatever their namespace's setting. */
  enabledMethods: readonly string[];
  /** Methods switched off whatever their namespace's setting. */
  disabledMethods: readonly string[];
}

/** The status of a registered method (`MethodRegistry.status`). */
export type MethodStatus = "enabled" | "disabled" | "unsupported";

/** One registered method, for documents listing them (`rpc.discover`). */
export interface RegisteredMethod {
  readonly name: string;
  readonly namespace: string;
  readonly method: RpcMethod;
  readonly status: MethodStatus;
}

/**
 * The namespace of the protocol's own methods: JSON-RPC 2.0 reserves names starting with `rpc.`
 * for them, so it joins with a dot (`rpc.discover`, OpenRPC's name) where others join with `_`.
 */
export const RPC_NAMESPACE = "rpc";

/** The wire name of `name` in `namespace`. */
export function wireName(namespace: string, name: string): string {
  return namespace === RPC_NAMESPACE ? `${namespace}.${name}` : `${namespace}_${name}`;
}

/** The answer to a lookup. */
export type MethodLookup =
  | {readonly kind: "enabled"; readonly method: RpcMethod}
  | {readonly kind: "disabled"}
  | {readonly kind: "unknown"};

const UNKNOWN: MethodLookup = {kind: "unknown"};
const DISABLED: MethodLookup = {kind: "disabled"};

/** Every wire method of the node and whether it is on. */
export class MethodRegistry {
  private readonly methods = new Map<
    string,
    {method: RpcMethod; namespace: string; enabled: boolean; lookup: MethodLookup}
  >();

  /** Throws on a duplicate wire name or on an option naming a method that does not exist. */
  constructor(tables: readonly NamespaceMethods[], policy: RegistryPolicy) {
    const all = new Map<string, {method: RpcMethod; namespace: string}>();
    for (const {namespace, methods} of tables) {
      for (const [name, method] of Object.entries(methods)) {
        const wire = wireName(namespace, name);
        if (all.has(wire)) throw new Error(`duplicate RPC method ${wire}`);
        all.set(wire, {method, namespace});
      }
    }
    for (const name of [...policy.enabledMethods, ...policy.disabledMethods]) {
      if (!all.has(name)) throw new Error(`unknown RPC method ${name} in the rpc options`);
    }
    for (const [wire, {method, namespace}] of all) {
      const enabled =
        !policy.disabledMethods.includes(wire) &&
        (policy.enabledMethods.includes(wire) || policy.isNamespaceEnabled(namespace));
      // The lookup answer is made once: `lookup` runs for every request.
      this.methods.set(wire, {method, namespace, enabled, lookup: enabled ? {kind: "enabled", method} : DISABLED});
    }
  }

  /** The method behind a wire name. */
  lookup(wireName: string): MethodLookup {
    return this.methods.get(wireName)?.lookup ?? UNKNOWN;
  }

  /**
   * The time budget of a body calling `wireNames`: `fallbackMs`, or the longest `timeoutMs` of the
   * enabled methods among them when that is longer (docs/rpc.md §8).
   */
  timeBudgetMs(wireNames: Iterable<string>, fallbackMs: number): number {
    let budget = fallbackMs;
    let previous: string | undefined;
    for (const name of wireNames) {
      // A batch often calls one method many times: it is looked up once per run.
      if (name === previous) continue;
      previous = name;
      const entry = this.methods.get(name);
      if (entry?.enabled && entry.method.timeoutMs !== undefined) budget = Math.max(budget, entry.method.timeoutMs);
    }
    return budget;
  }

  /** Every wire name, sorted. */
  names(): string[] {
    return [...this.methods.keys()].sort();
  }

  /** Whether a method is implemented, unsupported or disabled (docs, the inventory test). */
  status(wireName: string): MethodStatus | undefined {
    const entry = this.methods.get(wireName);
    return entry && statusOf(entry);
  }

  /** Every method with its namespace and status, sorted by wire name. */
  entries(): RegisteredMethod[] {
    return [...this.methods]
      .map(([name, entry]) => ({name, namespace: entry.namespace, method: entry.method, status: statusOf(entry)}))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
  }
}

function statusOf(entry: {method: RpcMethod; enabled: boolean}): MethodStatus {
  if (entry.method.unsupported !== undefined) return "unsupported";
  return entry.enabled ? "enabled" : "disabled";
}
