import {accountExists, stackAddress} from "./accounts.ts";
import {halt, memoryExpansionGas} from "./memory.ts";
import type {GasFunction} from "./types.ts";

/** The CALL-family opcodes, which differ in whether they carry a value and pay for new accounts. */
export enum CallKind {
  CALL = 0xf1,
  CALLCODE = 0xf2,
  DELEGATECALL = 0xf4,
  STATICCALL = 0xfa,
}

/**
 * rskj's CALL-family gas (docs/protocol/gas.md §4, `VM.computeCallGas`): base 700 (the opcode's base fee) +
 * 25,000 for a CALL to a missing account whatever the value + 9,000 with a value + memory; no
 * 63/64 retention; with a value at least 2,300 must remain and the callee gets the stipend on
 * top of the requested gas, paid by the caller.
 */
export function callGas(kind: CallKind): GasFunction {
  const carriesValue = kind === CallKind.CALL || kind === CallKind.CALLCODE;
  return async (runState, gas, common) => {
    const stack = runState.stack.peek(carriesValue ? 7 : 6);
    // [gas, to, value?, inOffset, inLength, outOffset, outLength], top of the stack first.
    const word = (i: number) => stack[i] as bigint;
    const memory = carriesValue ? 3 : 2;
    const value = carriesValue ? word(2) : 0n;
    if (kind === CallKind.CALL && value !== 0n && runState.interpreter.isStatic()) halt("STATIC_STATE_CHANGE");
    gas += memoryExpansionGas(runState, word(memory), word(memory + 1), common);
    gas += memoryExpansionGas(runState, word(memory + 2), word(memory + 3), common);
    if (kind === CallKind.CALL && !(await accountExists(runState, stackAddress(word(1))))) {
      gas += common.param("callNewAccountGas");
    }
    if (value !== 0n) gas += common.param("callValueTransferGas");
    const gasLeft = runState.interpreter.getGasLeft();
    if (gas > gasLeft) halt("OUT_OF_GAS");
    const available = gasLeft - gas;
    const stipend = value === 0n ? 0n : common.param("callStipendGas");
    if (available < stipend) halt("OUT_OF_GAS");
    const wanted = word(0) + stipend;
    const calleeGas = wanted < available ? wanted : available;
    // The built-in logic adds the stipend back to this frame (`addStipend`) and to the callee's
    // limit; charging it here as well makes the caller pay for it, as rskj does (docs/protocol/gas.md §11.3).
    runState.messageGasLimit = calleeGas - stipend;
    return gas + stipend;
  };
}
