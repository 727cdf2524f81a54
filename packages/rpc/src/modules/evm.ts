/**
 * The `evm` development controls (docs/protocol/mining-rpc.md §6) through the miner. Results follow rskj: evm_mine,
 * evm_startMining, evm_stopMining and evm_reset return null, evm_increaseTime the total shift and
 * evm_snapshot the snapshot id as QUANTITYs, evm_revert a boolean; the last three are the chain controls'
 * (modules/dev/chain.ts, docs/rpc.md §4.10). Where the miner's controls are off it refuses them
 * (MinerError NOT_ALLOWED, -32602). evm_mine also takes anvil's and Hardhat's timestamp
 * (`[timestamp]` or `[{timestamp, blocks}]`); evm_setAutomine, evm_setIntervalMining, evm_setNextBlockTimestamp
 * and evm_setBlockGasLimit are the dev controls' (docs/rpc.md §4.10), with anvil's answers.
 */
import {toQuantity} from "@xchain/utils";
import {QUANTITY_SCHEMA} from "../jsonrpc/jsonSchema.ts";
import type {RpcMethod} from "../jsonrpc/registry.ts";
import type {ModuleDeps} from "../moduleDeps.ts";
import {type Codec, objectMembers, optionalMember, withSchema} from "../params/codec.ts";
import {nonNegativeInteger} from "../params/hex.ts";
import {method, optional, param} from "../params/method.ts";
import {chainMethods} from "./dev/chain.ts";
import {environmentMethods} from "./dev/environment.ts";
import {miningMethods} from "./dev/mining.ts";
import {timeMethods} from "./dev/time.ts";
import {requireMiner} from "./unavailable.ts";

/** evm_mine's optional argument: a timestamp for the (first) block, or anvil's `{timestamp, blocks}`. */
interface MineOptions {
  timestamp?: number;
  blocks?: number;
}

const MINE_OPTIONS_SCHEMA = {
  oneOf: [
    QUANTITY_SCHEMA,
    {type: "integer", minimum: 0},
    {type: "object", properties: {timestamp: QUANTITY_SCHEMA, blocks: QUANTITY_SCHEMA}},
  ],
};

const mineOptions: Codec<MineOptions> = withSchema(MINE_OPTIONS_SCHEMA, (value, path) => {
  if (typeof value !== "object" || value === null) return {timestamp: nonNegativeInteger(value, path)};
  const members = objectMembers(value, path);
  return {
    timestamp: optionalMember(members, "timestamp", nonNegativeInteger, path),
    blocks: optionalMember(members, "blocks", nonNegativeInteger, path),
  };
});

/** evm_* methods. */
export function evmMethods(
  deps: Pick<ModuleDeps, "miner" | "chain" | "chainspec" | "clientVersion" | "options" | "logging">,
): Record<string, RpcMethod> {
  const {miner} = deps;
  const mining = miningMethods(deps);
  const time = timeMethods(deps);
  const {snapshot, revert, reset} = chainMethods(deps);
  return {
    /** Handler for `evm_mine`: builds and mines one block now; or `blocks` blocks, the first at `timestamp` */
    mine: method([optional("options", mineOptions)], async (options, context) => {
      if (!options) {
        await requireMiner(miner).mineBlock();
        return null;
      }
      const dev = requireMiner(miner).devControls();
      if (options.timestamp !== undefined) dev.time.setNextBlockTimestamp(options.timestamp);
      await dev.mining.mine(options.blocks ?? 1, 0, context.signal);
      return null;
    }),
    setAutomine: mining.setAutomine as RpcMethod,
    setIntervalMining: mining.setIntervalMining as RpcMethod,
    setNextBlockTimestamp: time.setNextBlockTimestamp as RpcMethod,
    setBlockGasLimit: environmentMethods(deps).setBlockGasLimit as RpcMethod,
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
