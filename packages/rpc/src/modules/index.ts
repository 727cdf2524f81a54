/**
 * Every namespace and its factory (design "RPC"): `rpcModules` is complete over the namespace
 * names, and `buildMethodTables` gives the registry one table per namespace topic.
 */

import {
  type MethodRegistry,
  type NamespaceMethods,
  RPC_NAMESPACE,
  type RpcMethod,
  withTimeout,
} from "../jsonrpc/registry.ts";
import type {ModuleDeps} from "../moduleDeps.ts";
import type {RpcModuleName} from "../options.ts";
import {adminMethods} from "./admin.ts";
import {dbMethods} from "./db.ts";
import {debugTraceCallMethods} from "./debug/traceCall.ts";
import {debugTraceMethods} from "./debug/traceMethods.ts";
import {wireProtocolMethods} from "./debug/wireProtocol.ts";
import {devControlMethods} from "./dev/index.ts";
import {ethModule} from "./eth/index.ts";
import {evmMethods} from "./evm.ts";
import {withForkHistory} from "./forkHistory.ts";
import {mnrMethods} from "./mnr.ts";
import {netMethods} from "./net.ts";
import {personalMethods} from "./personal.ts";
import {rpcMethods} from "./rpc.ts";
import {scoMethods} from "./sco.ts";
import {traceMethods} from "./trace.ts";
import {txpoolMethods} from "./txpool.ts";
import {shhMethods} from "./unsupported.ts";
import {web3Methods} from "./web3.ts";
import {xchainMethods} from "./xchain.ts";

/** Builds a namespace's method tables. */
export type ModuleFactory = (deps: ModuleDeps) => Record<string, RpcMethod>[];

/** The factory of every namespace. */
export const rpcModules = {
  web3: (deps) => [web3Methods(deps)],
  net: (deps) => [netMethods(deps)],
  eth: ethModule,
  xchain: (deps) => [xchainMethods(deps)],
  evm: (deps) => [evmMethods(deps)],
  anvil: (deps) => devControlMethods(deps, "anvil"),
  hardhat: (deps) => devControlMethods(deps, "hardhat"),
  mnr: (deps) => [mnrMethods(deps)],
  personal: (deps) => [personalMethods(deps)],
  txpool: (deps) => [txpoolMethods(deps)],
  debug: (deps) => [debugTraceMethods(deps), debugTraceCallMethods(deps), wireProtocolMethods(deps)],
  trace: (deps) => [traceMethods(deps)],
  sco: (deps) => [scoMethods(deps)],
  admin: (deps) => [adminMethods(deps)],
  db: (deps) => [dbMethods(deps)],
  shh: () => [shhMethods()],
} satisfies Record<RpcModuleName, ModuleFactory>;

/**
 * One table per namespace topic, for the registry, and the always-on `rpc` namespace, which
 * describes `registry` (the registry built from these tables). The tracing methods (trace_*,
 * debug_trace*) get `trace.timeoutMs` as their time budget, the sending methods `sendTimeoutMs`
 * (docs/rpc.md §8). On a forked node the
 * methods reading history answer from the upstream at or below the fork block (docs/forking.md §5).
 */
export function buildMethodTables(deps: ModuleDeps, registry: () => MethodRegistry): NamespaceMethods[] {
  const modules = Object.entries(rpcModules).flatMap(([namespace, factory]) =>
    factory(deps).map((methods) => ({
      namespace,
      methods: Object.fromEntries(
        Object.entries(methods).map(([name, method]) => [name, withBudget(namespace, name, method, deps.options)]),
      ),
    })),
  );
  const {forkHistory} = deps;
  const tables = forkHistory ? withForkHistory(modules, {...deps, forkHistory}) : modules;
  return [...tables, {namespace: RPC_NAMESPACE, methods: rpcMethods(registry, deps.clientVersion)}];
}

/** The methods that send a transaction, which on an instant-mining node answer once its block is mined. */
const SENDING_METHODS = new Set([
  "eth_sendRawTransaction",
  "eth_sendTransaction",
  "eth_sendUnsignedTransaction",
  "personal_sendTransaction",
]);

/** `method` with the time budget its kind gets (docs/rpc.md §8), or as it is. */
function withBudget(namespace: string, name: string, method: RpcMethod, options: ModuleDeps["options"]): RpcMethod {
  if (isTracingMethod(namespace, name)) return withTimeout(method, options.trace.timeoutMs);
  if (SENDING_METHODS.has(`${namespace}_${name}`)) return withTimeout(method, options.sendTimeoutMs);
  return method;
}

/** Whether `<namespace>_<name>` traces execution: trace_* and debug_trace*. */
export function isTracingMethod(namespace: string, name: string): boolean {
  return namespace === "trace" || (namespace === "debug" && name.startsWith("trace"));
}
