/** @ethereumjs/evm's own opcode table for a Common, which custom opcodes reuse parts of. */
import type {Common} from "@ethereumjs/common";
import {getOpcodesForHF} from "@ethereumjs/evm";
import type {AddOpcode, CustomOpcode, GasFunction, LogicFunction} from "./types.ts";

/** One built-in opcode: its base fee, logic and dynamic gas (when it has one). */
export interface BuiltinOpcode {
  name: string;
  fee: number;
  logic: LogicFunction;
  gas: GasFunction | undefined;
}

const tables = new WeakMap<Common, ReturnType<typeof getOpcodesForHF>>();

/** The built-in opcode `opcode` under `common`'s hardfork and params. */
export function builtinOpcode(common: Common, opcode: number): BuiltinOpcode {
  let table = tables.get(common);
  if (!table) {
    table = getOpcodesForHF(common);
    tables.set(common, table);
  }
  const info = table.opcodes.get(opcode);
  if (!info) throw new Error(`no built-in opcode 0x${opcode.toString(16)}`);
  return {
    name: info.name,
    fee: info.fee,
    logic: table.handlers.get(opcode) as LogicFunction,
    gas: table.dynamicGasHandlers.get(opcode) as GasFunction | undefined,
  };
}

/**
 * The entry of `opcode` in `opcodes` (a gas profile's custom opcodes) when it replaces the
 * opcode, else the built-in opcode as a custom entry: what a wrapper starts from.
 */
export function customOrBuiltin(opcodes: ReadonlyMap<number, CustomOpcode>, common: Common, opcode: number): AddOpcode {
  const given = opcodes.get(opcode);
  if (given !== undefined && "logicFunction" in given) return given;
  const builtin = builtinOpcode(common, opcode);
  const entry: AddOpcode = {opcode, opcodeName: builtin.name, baseFee: builtin.fee, logicFunction: builtin.logic};
  if (builtin.gas) entry.gasFunction = builtin.gas;
  return entry;
}
