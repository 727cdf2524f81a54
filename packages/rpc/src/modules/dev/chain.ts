/**
 * The chain group of the anvil and hardhat namespaces (docs/rpc.md §4.10 "Snapshots, reset, dump and
 * load"): `snapshot`, `revert`, `reset`, `dumpState`, `loadState`, through the miner's chain controls.
 * evm_snapshot, evm_revert and evm_reset (modules/evm.ts) are the same handlers.
 */
import type {ChainControls} from "@xchain/miner";
import {toQuantity} from "@xchain/utils";
import {RpcError} from "../../jsonrpc/errors.ts";
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {bool, type Codec, describeDecodeError, objectMembers, ParamError, withSchema} from "../../params/codec.ts";
import {data, nonNegativeInteger} from "../../params/hex.ts";
import {method, optional, param} from "../../params/method.ts";
import {requireMiner} from "../unavailable.ts";
import {decodeStateDump, encodeStateDump} from "./anvilState.ts";

/** The chain controls' methods, by name without the prefix. */
export function chainMethods({miner, chain}: Pick<ModuleDeps, "miner" | "chain">): {
  snapshot: RpcMethod;
  revert: RpcMethod;
  reset: RpcMethod;
  dumpState: RpcMethod;
  loadState: RpcMethod;
} {
  const controls = (): ChainControls => requireMiner(miner).devControls().chain;
  return {
    /** Handler for `anvil_snapshot`/`evm_snapshot`: the snapshot id */
    snapshot: method([], () => toQuantity(controls().snapshot())),
    /** Handler for `anvil_revert`/`evm_revert`: back to a snapshot; false for an unknown id */
    revert: method([param("snapshotId", nonNegativeInteger)], (id) => controls().revert(id)),
    /** Handler for `anvil_reset`/`evm_reset`: back to genesis; a fork is refused */
    reset: method([optional("options", resetOptions)], async () => {
      await controls().reset();
      return null;
    }),
    /** Handler for `anvil_dumpState`: hex of gzipped JSON (anvil's `SerializableState`) */
    dumpState: method([optional("preserveHistoricalStates", bool)], async () =>
      encodeStateDump(await controls().dumpState(), chain.head().number),
    ),
    /** Handler for `anvil_loadState`: the dump's accounts written into the head's state; true */
    loadState: method([param("state", data)], async (bytes) => {
      const target = controls();
      await target.loadState(await decodeStateDump(bytes, target.dumpMaxBytes).catch(asInvalidState));
      return true;
    }),
  };
}

/** A decode failure of the loaded state as -32602 naming its path, as `method` words a bad argument. */
function asInvalidState(error: unknown): never {
  const described = describeDecodeError(error);
  if (!described) throw error;
  throw RpcError.invalidParams(`invalid argument 0 (${described.path}): ${described.detail}`);
}

/**
 * anvil_reset's optional argument, `{forking: {jsonRpcUrl, blockNumber}}` or the inner object alone.
 * xchain has no fork mode yet: a URL or a block number is refused; an empty one (viem's `reset()`
 * sends `{forking: {blockNumber: null}}`) asks for nothing to fork and resets to genesis.
 */
const FORK_MEMBERS = {jsonRpcUrl: {type: ["string", "null"]}, blockNumber: {type: ["string", "integer", "null"]}};
// `{forking: {...}}`, or the inner object's members given directly.
const RESET_SCHEMA = {
  type: "object",
  properties: {forking: {type: ["object", "null"], properties: FORK_MEMBERS}, ...FORK_MEMBERS},
};

const resetOptions: Codec<void> = withSchema(RESET_SCHEMA, (value, path) => {
  const members = objectMembers(value, path);
  const forkingPath = members.forking === undefined ? path : `${path}.forking`;
  const forking =
    members.forking === undefined || members.forking === null ? members : objectMembers(members.forking, forkingPath);
  const {jsonRpcUrl, blockNumber} = forking;
  if ((jsonRpcUrl ?? null) !== null || (blockNumber ?? null) !== null) {
    const what = [
      jsonRpcUrl != null && `from ${String(jsonRpcUrl)}`,
      blockNumber != null && `at block ${String(blockNumber)}`,
    ]
      .filter(Boolean)
      .join(" ");
    throw new ParamError(
      forkingPath,
      `xchain has no fork mode yet, so it cannot reset to a fork ${what}; send reset without jsonRpcUrl and blockNumber to go back to genesis`,
    );
  }
});
