/** The EVM's message and step events, turned into an `ExecutionTracer`'s frames and steps. */
import type {EVM, EVMResult, InterpreterStep, Message} from "@ethereumjs/evm";
import type {OpcodeTraceSink} from "./tracedOpcodes.ts";
import type {ExecutionTracer, FrameKind, FrameStart} from "./types.ts";

/** Listens to `evm` for `tracer` until the returned function is called. */
export function attachTracer(evm: EVM, tracer: ExecutionTracer, sink: OpcodeTraceSink): () => void {
  // Listeners take one argument: @ethereumjs/evm then calls them without waiting.
  const onMessage = (message: Message) => {
    const kind = message.depth === 0 ? rootKind(message) : (sink.nextFrameKind ?? rootKind(message));
    sink.nextFrameKind = undefined;
    tracer.frameStart?.(frameStart(evm, message, kind));
  };
  const onResult = (result: EVMResult) => {
    const exec = result.execResult;
    tracer.frameEnd?.({
      gasUsed: exec.executionGasUsed,
      output: exec.returnValue,
      error: exec.exceptionError?.error,
      createdAddress: exec.exceptionError === undefined ? result.createdAddress?.bytes : undefined,
      ranCode: exec.runState !== undefined,
      logs: (exec.logs ?? []).map(([address, topics, data]) => ({address, topics, data})),
    });
  };
  const onStep = (step: InterpreterStep) => {
    tracer.step?.({
      pc: step.pc,
      op: step.opcode.name,
      opcode: step.opcode.code,
      gas: step.gasLeft,
      gasCost: step.opcode.dynamicFee ?? BigInt(step.opcode.fee),
      depth: step.depth,
      stack: step.stack,
      memory: step.memory,
      address: step.address.bytes,
    });
  };
  if (tracer.frameStart) evm.events.on("beforeMessage", onMessage);
  if (tracer.frameEnd) evm.events.on("afterMessage", onResult);
  if (tracer.step) evm.events.on("step", onStep);
  return () => {
    evm.events.off("beforeMessage", onMessage);
    evm.events.off("afterMessage", onResult);
    evm.events.off("step", onStep);
  };
}

function rootKind(message: Message): FrameKind {
  if (message.to !== undefined) return "call";
  return message.salt === undefined ? "create" : "create2";
}

function frameStart(evm: EVM, message: Message, kind: FrameKind): FrameStart {
  const isCreate = kind === "create" || kind === "create2";
  const codeAddress = isCreate ? undefined : message.codeAddress;
  // A delegatecall keeps its caller's caller as msg.sender: the frame is made by the delegating contract.
  const from = kind === "delegatecall" && message.to ? message.to : message.caller;
  return {
    kind,
    depth: message.depth,
    from: from.bytes,
    to: codeAddress?.bytes,
    value: message.value,
    gas: message.gasLimit,
    // The message's data may be a view of the caller's memory, which later opcodes overwrite.
    input: message.data.slice(),
    precompile: codeAddress !== undefined && evm.getPrecompile(codeAddress) !== undefined,
  };
}
