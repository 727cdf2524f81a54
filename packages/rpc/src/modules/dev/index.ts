/**
 * The development controls of anvil and Hardhat (docs/rpc.md §4.10): one set of methods, served under
 * both the `anvil_` and the `hardhat_` prefix with the parameter shapes and answers both tools send.
 * Each group of controls has its own file; this one puts the groups together.
 */
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {accountMethods} from "./accounts.ts";
import {chainMethods} from "./chain.ts";
import {environmentMethods} from "./environment.ts";
import {miningMethods} from "./mining.ts";
import type {DevNamespace} from "./namespace.ts";
import {stateMethods} from "./state.ts";
import {timeMethods} from "./time.ts";

/** Builds one group's methods, by name without the prefix. */
type DevMethodGroup = (deps: ModuleDeps, namespace: DevNamespace) => Record<string, RpcMethod>;

const GROUPS: readonly DevMethodGroup[] = [
  stateMethods,
  accountMethods,
  chainMethods,
  miningMethods,
  timeMethods,
  environmentMethods,
];

/** The methods of the `anvil` or the `hardhat` namespace (the same methods under both). */
export function devControlMethods(deps: ModuleDeps, namespace: DevNamespace): Record<string, RpcMethod>[] {
  return GROUPS.map((group) => group(deps, namespace));
}
