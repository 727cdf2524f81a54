import {EVMError} from "@ethereumjs/evm";
import type {OpcodeCommon, RunState} from "./types.ts";

/** Throws the EVM's exceptional-halt error (caught by the interpreter). */
export function halt(error: keyof typeof EVMError.errorMessages): never {
  throw new EVMError(EVMError.errorMessages[error]);
}

/** ⌈value / 32⌉, the word count of a byte length. */
export function words(length: bigint): bigint {
  return (length + 31n) / 32n;
}

/**
 * The gas to grow memory to cover [offset, offset + length), recording the new size as
 * @ethereumjs/evm's own `subMemUsage` does (3·w + w²/512, charged incrementally; docs/protocol/gas.md §3).
 */
export function memoryExpansionGas(runState: RunState, offset: bigint, length: bigint, common: OpcodeCommon): bigint {
  if (length === 0n) return 0n;
  const newWords = words(offset + length);
  if (newWords <= runState.memoryWordCount) return 0n;
  let cost = newWords * common.param("memoryGas") + (newWords * newWords) / common.param("quadCoefficientDivGas");
  if (cost > runState.highestMemCost) {
    const previous = runState.highestMemCost;
    runState.highestMemCost = cost;
    cost -= previous;
  }
  runState.memoryWordCount = newWords;
  return cost;
}
