/**
 * Time (docs/rpc.md §4.10 "Time"): the next block's timestamp, setTime, increaseTime and a fixed interval
 * between block timestamps, with anvil's parameters and answers.
 */
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {nonNegativeInteger} from "../../params/hex.ts";
import {method, param} from "../../params/method.ts";
import {requireMiner} from "../unavailable.ts";

// anvil_setTime takes seconds or, above this, milliseconds (Ganache's evm_setTime).
const MILLISECONDS_ABOVE = 1_000_000_000_000;

/** The time group's methods (also evm_setNextBlockTimestamp, evm.ts). */
export function timeMethods({miner}: Pick<ModuleDeps, "miner">): Record<string, RpcMethod> {
  const time = () => requireMiner(miner).devControls().time;
  return {
    /** Handler for `anvil_setNextBlockTimestamp` (evm_setNextBlockTimestamp): after the head's, at most 2^32 − 1 */
    setNextBlockTimestamp: method([param("timestamp", nonNegativeInteger)], (timestamp) => {
      time().setNextBlockTimestamp(timestamp);
      return null;
    }),
    /** Handler for `anvil_setTime`: now becomes the time given; answers the seconds it moved forward */
    setTime: method([param("timestamp", nonNegativeInteger)], (timestamp) =>
      time().setTime(timestamp > MILLISECONDS_ABOVE ? Math.floor(timestamp / 1000) : timestamp),
    ),
    /** Handler for `anvil_increaseTime` (evm_increaseTime's control): answers the total shift as a number */
    increaseTime: method([param("seconds", nonNegativeInteger)], (seconds) =>
      requireMiner(miner).increaseTime(seconds),
    ),
    /** Handler for `anvil_setBlockTimestampInterval`: each block that many seconds after its parent */
    setBlockTimestampInterval: method([param("seconds", nonNegativeInteger)], (seconds) => {
      time().setBlockTimestampInterval(seconds);
      return null;
    }),
    /** Handler for `anvil_removeBlockTimestampInterval`: false when none was set */
    removeBlockTimestampInterval: method([], () => time().removeBlockTimestampInterval()),
  };
}
