/**
 * The `evm` development controls (docs/protocol/mining-rpc.md §6) through the miner. Results follow rskj: evm_mine,
 * evm_startMining, evm_stopMining and evm_reset return null, evm_increaseTime the total shift and
 * evm_snapshot the snapshot id as QUANTITYs, evm_revert a boolean; the last three are the chain controls'
 * (modules/dev/chain.ts, docs/rpc.md §4.10). Where the miner's controls are off it refuses them
 * (MinerError NOT_ALLOWED, -32602).
 */
import {toQuantity} from "@xchain/utils";
import type {RpcMethod} from "../jsonrpc/registry.ts";
import type {ModuleDeps} from "../moduleDeps.ts";
import {nonNegativeInteger} from "../params/hex.ts";
import {method, param} from "../params/method.ts";
import {chainMethods} from "./dev/chain.ts";
import {requireMiner} from "./unavailable.ts";

/** evm_* methods. */
export function evmMethods(deps: Pick<ModuleDeps, "miner" | "chain">): Record<string, RpcMethod> {
  const {miner} = deps;
  const {snapshot, revert, reset} = chainMethods(deps);
  return {
    /** Handler for `evm_mine`: builds and mines one block now */
    mine: method([], async () => {
      await requireMiner(miner).mineBlock();
      return null;
    }),
    /** Handler for `evm_increaseTime`: shifts the miner clock; returns the total shift in seconds */
    increaseTime: method([param("seconds", nonNegativeInteger)], (s) =>
      toQuantity(requireMiner(miner).increaseTime(s)),
    ),
    /** Handler for `evm_startMining` */
    startMining: method([], () => {
      requireMiner(miner).startMining();
      return null;
    }),
    /** Handler for `evm_stopMining` */
    stopMining: method([], () => {
      requireMiner(miner).stopMining();
      return null;
    }),
    /** Handlers for `evm_snapshot`, `evm_revert` and `evm_reset`: the chain controls' (docs/rpc.md §4.10) */
    snapshot,
    revert,
    reset,
  };
}
