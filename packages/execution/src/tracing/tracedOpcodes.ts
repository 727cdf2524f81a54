/**
 * Opcodes that tell a tracer what the EVM's events do not: which opcode entered the next frame
 * (a STATICCALL and a CALL made in a static context carry the same message) and what a
 * SELFDESTRUCT is about to do. Gas and semantics are unchanged.
 */
import type {Common} from "@ethereumjs/common";
import {Address, bigIntToBytes, setLengthLeft} from "@ethereumjs/util";
import {customOrBuiltin} from "../gas/builtin.ts";
import type {CustomOpcode, LogicFunction} from "../gas/types.ts";
import type {FrameKind, SelfDestructEvent} from "./types.ts";

/** The kind of frame each message-making opcode enters. */
const FRAME_OPCODES: ReadonlyMap<number, FrameKind> = new Map<number, FrameKind>([
  [0xf0, "create"],
  [0xf1, "call"],
  [0xf2, "callcode"],
  [0xf4, "delegatecall"],
  [0xf5, "create2"],
  [0xfa, "staticcall"],
]);

const SELFDESTRUCT = 0xff;

/** Where the traced opcodes report. */
export interface OpcodeTraceSink {
  /** The kind of the frame the next message enters; taken (and cleared) by the message hook. */
  nextFrameKind: FrameKind | undefined;
  selfDestruct(event: SelfDestructEvent): void;
}

/** `opcodes` (a gas profile's, possibly preemptible) with the message-making opcodes and SELFDESTRUCT reporting to `sink`. */
export function tracedOpcodes(opcodes: readonly CustomOpcode[], common: Common, sink: OpcodeTraceSink): CustomOpcode[] {
  const byCode = new Map(opcodes.map((entry) => [entry.opcode, entry]));
  for (const code of [...FRAME_OPCODES.keys(), SELFDESTRUCT]) {
    const base = customOrBuiltin(byCode, common, code);
    const logic = base.logicFunction;
    const kind = FRAME_OPCODES.get(code);
    const traced: LogicFunction =
      kind !== undefined
        ? (runState, c) => {
            sink.nextFrameKind = kind;
            return logic(runState, c);
          }
        : async (runState, c) => {
            const [beneficiary] = runState.stack.peek(1);
            const address = runState.interpreter.getAddress();
            const balance = (await runState.stateManager.getAccount(address))?.balance ?? 0n;
            sink.selfDestruct({
              address: address.bytes,
              beneficiary: new Address(setLengthLeft(bigIntToBytes(beneficiary ?? 0n), 20)).bytes,
              balance,
            });
            return logic(runState, c);
          };
    byCode.set(code, {...base, logicFunction: traced});
  }
  return [...byCode.values()];
}
