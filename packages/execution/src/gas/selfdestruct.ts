import {accountExists, stackAddress} from "./accounts.ts";
import {halt} from "./memory.ts";
import type {GasFunction} from "./types.ts";

/**
 * rskj's SELFDESTRUCT gas (docs/protocol/gas.md §3, `VM.doSUICIDE`): 5,000 (the base fee) + 25,000 when the
 * beneficiary account does not exist, whatever the balance. The 24,000 refund comes from the
 * `selfdestructRefundGas` param.
 */
export const selfdestructGas: GasFunction = async (runState, gas, common) => {
  if (runState.interpreter.isStatic()) halt("STATIC_STATE_CHANGE");
  const beneficiary = stackAddress(runState.stack.peek()[0] as bigint);
  if (!(await accountExists(runState, beneficiary))) gas += common.param("callNewAccountGas");
  return gas;
};
