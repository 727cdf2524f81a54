import {bigIntToBytes, setLengthLeft} from "@ethereumjs/util";
import {halt} from "./memory.ts";
import type {GasFunction} from "./types.ts";

/**
 * rskj's SSTORE (docs/protocol/gas.md §3, `VM.doSSTORE`): the Frontier rule on the current value only —
 * zero → non-zero 20,000; non-zero → zero 5,000 plus a 15,000 refund; anything else 5,000. No
 * original-value tracking, no warm/cold surcharge, no 2,300 sentry.
 */
export const sstoreGas: GasFunction = async (runState, gas, common) => {
  if (runState.interpreter.isStatic()) halt("STATIC_STATE_CHANGE");
  const [key, value] = runState.stack.peek(2) as [bigint, bigint];
  const current = await runState.interpreter.storageLoad(setLengthLeft(bigIntToBytes(key), 32), false, false);
  if (current.every((byte) => byte === 0)) {
    return gas + common.param(value === 0n ? "sstoreResetGas" : "sstoreSetGas");
  }
  if (value === 0n) runState.interpreter.refundGas(common.param("sstoreRefundGas"), "SSTORE clear");
  return gas + common.param("sstoreResetGas");
};
