/**
 * The chain group of the anvil and hardhat namespaces (docs/rpc.md §4.10 "Snapshots, reset, dump and
 * load"): `snapshot`, `revert`, `reset`, `dumpState`, `loadState`, through the miner's chain controls,
 * and on a fork `reset` with `forking` and `setRpcUrl` through the fork's controls (docs/forking.md §8).
 * evm_snapshot, evm_revert and evm_reset (modules/evm.ts) are the same handlers.
 */
import type {ChainControls} from "@xchain/miner";
import {toQuantity} from "@xchain/utils";
import type {ReforkRequest} from "../../deps.ts";
import {RpcError} from "../../jsonrpc/errors.ts";
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {bool, type Codec, describeDecodeError, objectMembers, ParamError, withSchema} from "../../params/codec.ts";
import {data, nonNegativeInteger} from "../../params/hex.ts";
import {method, optional, param} from "../../params/method.ts";
import {requireMiner} from "../unavailable.ts";
import {decodeStateDump, encodeStateDump} from "./anvilState.ts";

/** The chain controls' methods, by name without the prefix. */
export function chainMethods({miner, chain, forkControls}: Pick<ModuleDeps, "miner" | "chain" | "forkControls">): {
  snapshot: RpcMethod;
  revert: RpcMethod;
  reset: RpcMethod;
  setRpcUrl: RpcMethod;
  dumpState: RpcMethod;
  loadState: RpcMethod;
} {
  const controls = (): ChainControls => requireMiner(miner).devControls().chain;
  return {
    /** Handler for `anvil_snapshot`/`evm_snapshot`: the snapshot id */
    snapshot: method([], () => toQuantity(controls().snapshot())),
    /** Handler for `anvil_revert`/`evm_revert`: back to a snapshot; false for an unknown id */
    revert: method([param("snapshotId", nonNegativeInteger)], (id) => controls().revert(id)),
    /**
     * Handler for `anvil_reset`/`evm_reset`: back to genesis (a fork's anchor); with a `jsonRpcUrl` or a
     * `blockNumber`, on a fork, re-forked there; on a node that is not a fork, refused
     */
    reset: method([optional("options", resetOptions)], async (request) => {
      if (request === undefined || (request.jsonRpcUrl === undefined && request.blockNumber === undefined)) {
        await controls().reset();
      } else {
        requireMiner(miner); // the dev controls' check, before the fork's
        if (!forkControls) throw RpcError.invalidParams(notAFork(request));
        await forkControls.reset(request);
      }
      return null;
    }),
    /** Handler for `anvil_setRpcUrl`: the fork's upstream, checked to be the same chain serving the fork block */
    setRpcUrl: method([param("url", upstreamUrl)], async (url) => {
      requireMiner(miner);
      if (!forkControls) {
        throw RpcError.invalidParams(
          "this node is not a fork (start it with --fork.url): it has no upstream to change",
        );
      }
      await forkControls.setRpcUrl(url);
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

/** Why a node that is not a fork refuses a reset onto one (anvil turns a node into a fork; xchain's fork is chosen at start). */
function notAFork({jsonRpcUrl, blockNumber}: ReforkRequest): string {
  const what = [
    jsonRpcUrl !== undefined && `from ${jsonRpcUrl}`,
    blockNumber !== undefined && `at block ${blockNumber}`,
  ]
    .filter(Boolean)
    .join(" ");
  return `this node is not a fork (start one with --fork.url), so it cannot reset to a fork ${what}; send reset without jsonRpcUrl and blockNumber to go back to genesis`;
}

/** An upstream's URL: http or https. */
const upstreamUrl: Codec<string> = withSchema({type: "string"}, (value, path) => {
  if (typeof value !== "string") throw new ParamError(path, "expected a URL string");
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ParamError(path, `${JSON.stringify(value)} is not a URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ParamError(path, `the upstream is read over HTTP(S), not ${parsed.protocol}`);
  }
  return value;
});

/**
 * anvil_reset's optional argument, `{forking: {jsonRpcUrl, blockNumber}}` or the inner object alone. An
 * empty one (viem's `reset()` sends `{forking: {blockNumber: null}}`) asks for no other fork: back to the
 * genesis, on a fork to the current anchor. `blockNumber` is a JSON integer or a QUANTITY.
 */
const FORK_MEMBERS = {jsonRpcUrl: {type: ["string", "null"]}, blockNumber: {type: ["string", "integer", "null"]}};
// `{forking: {...}}`, or the inner object's members given directly.
const RESET_SCHEMA = {
  type: "object",
  properties: {forking: {type: ["object", "null"], properties: FORK_MEMBERS}, ...FORK_MEMBERS},
};

const resetOptions: Codec<ReforkRequest> = withSchema(RESET_SCHEMA, (value, path) => {
  const members = objectMembers(value, path);
  const forkingPath = members.forking === undefined ? path : `${path}.forking`;
  const forking =
    members.forking === undefined || members.forking === null ? members : objectMembers(members.forking, forkingPath);
  const {jsonRpcUrl, blockNumber} = forking;
  return {
    ...(jsonRpcUrl == null ? {} : {jsonRpcUrl: upstreamUrl(jsonRpcUrl, `${forkingPath}.jsonRpcUrl`)}),
    ...(blockNumber == null ? {} : {blockNumber: nonNegativeInteger(blockNumber, `${forkingPath}.blockNumber`)}),
  };
});
