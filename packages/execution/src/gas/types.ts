/** The @ethereumjs/evm custom-opcode types, which the package does not export by name. */
import type {EVMOpts} from "@ethereumjs/evm";
import type {NativeSession} from "../native/dispatch/session.ts";

/** An entry of `EVMOpts.customOpcodes`. */
export type CustomOpcode = NonNullable<EVMOpts["customOpcodes"]>[number];
/** A custom opcode that replaces (or adds) an opcode. */
export type AddOpcode = Extract<CustomOpcode, {logicFunction: unknown}>;
/** The dynamic gas function of an opcode: returns the opcode's total gas (base fee included). */
export type GasFunction = NonNullable<AddOpcode["gasFunction"]>;
/** The logic function of an opcode. */
export type LogicFunction = AddOpcode["logicFunction"];
/** The interpreter's per-frame state handed to gas and logic functions. */
export type RunState = Parameters<GasFunction>[0];
/** The Common handed to gas and logic functions. */
export type OpcodeCommon = Parameters<GasFunction>[2];

/** What the messages of one block (or one call) share. */
export interface BlockScope {
  /** Addresses (lowercase 0x-hex) that rskj considers deleted in the current block (docs/protocol/gas.md §7.5). */
  readonly selfDestructed: Set<string>;
  /** What the native contracts read of the current message (docs/protocol/native-contracts.md §2.3). */
  readonly native: NativeSession;
}
