/**
 * Mining and the pool (docs/rpc.md §4.10 "Mining and the pool"): `mine`, automine, interval mining and the
 * pool's drops, with anvil's parameters (counts as QUANTITY or number) and answers (null for the setters).
 */
import {toData} from "@xchain/utils";
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import {withTimeout} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {bool} from "../../params/codec.ts";
import {address, hash, nonNegativeInteger} from "../../params/hex.ts";
import {method, optional, param} from "../../params/method.ts";
import {requireMiner} from "../unavailable.ts";
import type {DevNamespace} from "./namespace.ts";

/**
 * `mine`'s time budget: the default `miner.maxBlocksPerMine` (1,000) at up to 60 ms each on a loaded machine.
 * A client that gives up first stops the run (the request's signal).
 */
const MINE_TIMEOUT_MS = 60_000;

/** The mining group's methods (also evm_setAutomine and evm_setIntervalMining, evm.ts). */
export function miningMethods(
  {miner}: Pick<ModuleDeps, "miner">,
  namespace: DevNamespace = "anvil",
): Record<string, RpcMethod> {
  const mining = () => requireMiner(miner).devControls().mining;
  return {
    /** Handler for `anvil_mine` / `hardhat_mine`: `[blocks = 1, interval = 0 s]`, each block `interval` after the one before */
    mine: withTimeout(
      method(
        [optional("blocks", nonNegativeInteger, 1), optional("interval", nonNegativeInteger, 0)],
        async (blocks, interval, context) => {
          await mining().mine(blocks, interval, context.signal);
          return null;
        },
      ),
      MINE_TIMEOUT_MS,
    ),
    /** Handler for `anvil_getAutomine`: whether each transaction is mined as it arrives */
    getAutomine: method([], () => mining().automine()),
    /** Handler for `anvil_setAutomine` (evm_setAutomine) */
    setAutomine: method([param("enabled", bool)], (enabled) => {
      mining().setAutomine(enabled);
      return null;
    }),
    /** Handler for `anvil_getIntervalMining`: the interval in seconds, null when off */
    getIntervalMining: method([], () => mining().intervalMining()),
    /** Handler for `anvil_setIntervalMining` (evm_setIntervalMining): seconds, as anvil; 0 = off */
    setIntervalMining: method([param("seconds", nonNegativeInteger)], (seconds) => {
      mining().setIntervalMining(seconds);
      return null;
    }),
    /**
     * Handler for `anvil_dropTransaction` (the hash when the pool held it, else null) and `hardhat_dropTransaction`
     * (true or false: Hardhat's answer, which its network helpers check)
     */
    dropTransaction: method([param("hash", hash)], async (txHash) => {
      const dropped = await mining().dropTransaction(txHash);
      if (namespace === "hardhat") return dropped;
      return dropped ? toData(txHash) : null;
    }),
    /** Handler for `anvil_dropAllTransactions` */
    dropAllTransactions: method([], async () => {
      await mining().dropAllTransactions();
      return null;
    }),
    /** Handler for `anvil_removePoolTransactions`: every pool transaction of a sender */
    removePoolTransactions: method([param("address", address)], async (sender) => {
      await mining().removePoolTransactions(sender);
      return null;
    }),
  };
}
