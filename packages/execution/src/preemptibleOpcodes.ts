/**
 * The opcodes where a call may be preempted (calls/preemption.ts). A long execution must either loop,
 * which takes a JUMP or JUMPI, or recurse, which takes a CALL-family or CREATE opcode; straight
 * code is bounded by the code size. Their gas functions become preemption points: the gas is
 * unchanged, and the opcode runs after the call has had its pause.
 */
import type {Common} from "@ethereumjs/common";
import {customOrBuiltin} from "./gas/builtin.ts";
import type {CustomOpcode, GasFunction} from "./gas/types.ts";

/** JUMP, JUMPI, CREATE, CALL, CALLCODE, DELEGATECALL, CREATE2, STATICCALL. */
const PREEMPTION_OPCODES: readonly number[] = [0x56, 0x57, 0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa];

/** A call's preemption points (calls/preemption.ts's `Preemption`). */
export interface PreemptionPoints {
  /** Undefined while the call's slice lasts, else the pause it takes (rejecting when it is aborted). */
  point(): Promise<void> | undefined;
}

/** Where the preemption of the call running now is found (a call context runs one call at a time). */
export interface PreemptionSlot {
  current: PreemptionPoints | undefined;
}

/** `opcodes` (a gas profile's) with a preemption point in front of each opcode of `PREEMPTION_OPCODES`. */
export function preemptibleOpcodes(
  opcodes: readonly CustomOpcode[],
  common: Common,
  slot: PreemptionSlot,
): CustomOpcode[] {
  const byCode = new Map(opcodes.map((entry) => [entry.opcode, entry]));
  for (const code of PREEMPTION_OPCODES) {
    const base = customOrBuiltin(byCode, common, code);
    byCode.set(code, {...base, gasFunction: preemptible(base.gasFunction, slot)});
  }
  return [...byCode.values()];
}

function preemptible(gasFunction: GasFunction | undefined, slot: PreemptionSlot): GasFunction {
  const handler = (...[runState, gas, common]: Parameters<GasFunction>): bigint | Promise<bigint> => {
    const pause = slot.current?.point();
    const charge = () => (gasFunction ? gasFunction(runState, gas, common) : gas);
    return pause === undefined ? charge() : pause.then(charge);
  };
  // The interpreter awaits every gas function, so one may answer synchronously or not: the
  // common case (no pause) stays as cheap as a synchronous handler.
  return handler as GasFunction;
}
