/** The `eth` namespace, split by topic; the registry checks that no two topics define the same method. */

import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {ethAccountMethods} from "./accounts.ts";
import {ethBlockReceiptMethods} from "./blockReceipts.ts";
import {ethBlockMethods} from "./blocks.ts";
import {ethBridgeStateMethods} from "./bridgeState.ts";
import {ethCallMethods} from "./call.ts";
import {ethChainInfoMethods} from "./chainInfo.ts";
import {ethFilterMethods} from "./filters.ts";
import {ethLogMethods} from "./logs.ts";
import {ethMiningMethods} from "./mining.ts";
import {ethProofMethods} from "./proof.ts";
import {ethStateMethods} from "./state.ts";
import {ethSubscriptionMethods} from "./subscribe.ts";
import {ethTransactionMethods} from "./transactions.ts";
import {ethUnsupportedMethods} from "./unsupported.ts";

/** Every table of the eth namespace. */
export function ethModule(deps: ModuleDeps): Record<string, RpcMethod>[] {
  return [
    ethChainInfoMethods(deps),
    ethStateMethods(deps),
    ethProofMethods(deps),
    ethBlockMethods(deps),
    ethTransactionMethods(deps),
    ethBlockReceiptMethods(deps),
    ethAccountMethods(deps),
    ethCallMethods(deps),
    ethLogMethods(deps),
    ethFilterMethods(deps),
    ethSubscriptionMethods(deps),
    ethMiningMethods(deps),
    ethBridgeStateMethods(deps),
    ethUnsupportedMethods(),
  ];
}
