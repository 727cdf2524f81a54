import {bytesToBigInt, KECCAK256_NULL} from "@ethereumjs/util";
import {isPrecompiledAddress} from "../precompiles/addresses.ts";
import {stackAddress} from "./accounts.ts";
import type {LogicFunction} from "./types.ts";

const MAX_UINT256 = (1n << 256n) - 1n;
const EMPTY_CODE_HASH = bytesToBigInt(KECCAK256_NULL);

/** EXTCODESIZE of a precompiled contract is 2²⁵⁶−1 (RSKIP-90, `VM.doCODESIZE`); otherwise the built-in. */
export function extcodesizeLogic(builtin: LogicFunction): LogicFunction {
  return async (runState, common) => {
    if (!isPrecompiledAddress(stackAddress(runState.stack.peek()[0] as bigint).bytes)) {
      await builtin(runState, common);
      return;
    }
    runState.stack.pop();
    runState.stack.push(MAX_UINT256);
  };
}

/**
 * rskj's EXTCODEHASH (RSKIP-169, docs/protocol/gas.md §7.2): 0 for a missing account, the code hash of an
 * existing one (keccak256("") without code, even when empty: no EIP-161 emptiness), and
 * keccak256("") for precompiled contracts.
 */
export const extcodehashLogic: LogicFunction = async (runState) => {
  const address = stackAddress(runState.stack.pop());
  if (isPrecompiledAddress(address.bytes)) {
    runState.stack.push(EMPTY_CODE_HASH);
    return;
  }
  const account = await runState.stateManager.getAccount(address);
  runState.stack.push(account === undefined ? 0n : bytesToBigInt(account.codeHash));
};
