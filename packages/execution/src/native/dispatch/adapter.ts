/**
 * The one `customPrecompiles` adapter every native contract runs behind (docs/protocol/native-contracts.md §2):
 * rskj's `getGasForData` charged first (all the forwarded gas when it does not fit), then `execute`; a
 * `NativeContractFailure` is an exceptional halt that charges only that price, rolls back the frame
 * (the value moved with it included) and returns no data, never a REVERT.
 *
 * @ethereumjs/evm hands a precompile only its input and gas; the rest of rskj's context (sender, value,
 * depth, call type) is the message the EVM announced last (`beforeMessage`), which is the precompile's
 * own: the EVM starts no other message between announcing it and running its code.
 */
import {type CustomPrecompile, EVMError, type ExecResult, type PrecompileInput} from "@ethereumjs/evm";
import {bytesToPrefixedHex, equalBytes} from "@xchain/utils";
import {NativeContractFailure} from "../../errors.ts";
import type {ExecutionChainView} from "../../types.ts";
import type {NativeSession} from "./session.ts";
import type {NativeCallContext, NativeCallType, NativeContract} from "./types.ts";

/** The EVM error of a failed native contract: rskj's VMException (`CallResult.error`). */
export const NATIVE_CONTRACT_FAILURE_ERROR = "native contract failure";

/** The fields of an @ethereumjs/evm message the adapter reads. */
export interface NativeMessage {
  caller: {bytes: Uint8Array};
  to?: {bytes: Uint8Array} | undefined;
  codeAddress: {bytes: Uint8Array};
  value: bigint;
  depth: number;
  isStatic: boolean;
  delegatecall: boolean;
}

/** The message the EVM started last (set from its `beforeMessage` event). */
export interface MessageTracker {
  current: NativeMessage | undefined;
}

const EMPTY = new Uint8Array(0);

function callTypeOf(message: NativeMessage): NativeCallType {
  if (message.depth === 0) return "TRANSACTION";
  if (message.delegatecall) return "DELEGATECALL";
  // CALLCODE runs the code of codeAddress in the caller's own account.
  if (message.to && !equalBytes(message.to.bytes, message.codeAddress.bytes)) return "CALLCODE";
  // A CALL below a STATICCALL is static too, and @ethereumjs/evm's message does not say which opcode made it.
  return message.isStatic ? "STATICCALL" : "CALL";
}

/** What the adapter of one EVM reads besides the message. */
export interface NativeHost {
  session: NativeSession;
  chain: ExecutionChainView;
  messages: MessageTracker;
}

function contextOf(contract: NativeContract, host: NativeHost, input: PrecompileInput): NativeCallContext {
  const {session} = host;
  const message = host.messages.current;
  if (!message || !equalBytes(message.codeAddress.bytes, contract.address) || session.block === undefined) {
    // A programming error of the wiring, not a contract failure: the EVM's own message must be known.
    throw new Error(`native contract ${contract.name} ran without its message`);
  }
  const callType = callTypeOf(message);
  // rskj's sender is the calling frame's own (owner) address: for DELEGATECALL the calling contract, where
  // @ethereumjs/evm keeps its caller's; DELEGATECALL and STATICCALL move no value (RSKIP-103).
  const delegated = callType === "DELEGATECALL";
  return {
    address: contract.address,
    sender: delegated && message.to ? message.to.bytes : message.caller.bytes,
    origin: session.origin,
    value: delegated || callType === "STATICCALL" ? 0n : message.value,
    callType,
    isStatic: message.isStatic,
    depth: message.depth,
    localCall: session.localCall,
    transactionHash: session.transactionHash,
    transactionPublicKey: session.transactionPublicKey,
    block: session.block,
    chain: host.chain,
    chainspec: session.chainspec,
    state: input._EVM.stateManager,
  };
}

/** The result of a failed native contract (or a failed precompile priced as rskj prices it) that charged `gas`. */
export function nativeFailureResult(gas: bigint): ExecResult {
  return {
    returnValue: EMPTY,
    executionGasUsed: gas,
    exceptionError: new EVMError(NATIVE_CONTRACT_FAILURE_ERROR as EVMError["error"]),
  };
}

/** `contract` as a `customPrecompiles` entry of the EVM whose native host is `host`. */
export function nativePrecompile(contract: NativeContract, host: NativeHost): CustomPrecompile {
  const run = async (input: PrecompileInput): Promise<ExecResult> => {
    const context = contextOf(contract, host, input);
    // Before its RSKIP the address is an ordinary account with no code.
    if (!contract.isActive(context.chainspec, context.block.number)) return {returnValue: EMPTY, executionGasUsed: 0n};
    const gas = await contract.gas(input.data, context);
    if (gas > input.gasLimit) {
      return {
        returnValue: EMPTY,
        executionGasUsed: input.gasLimit,
        exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS),
      };
    }
    try {
      const result = await contract.run(input.data, context);
      const ok: ExecResult = {returnValue: result.output, executionGasUsed: gas};
      if (result.logs?.length) ok.logs = result.logs.map((log) => [log.address, log.topics, log.data]);
      return ok;
    } catch (e) {
      if (e instanceof NativeContractFailure) return nativeFailureResult(gas);
      throw e;
    }
  };
  return {address: bytesToPrefixedHex(contract.address) as `0x${string}`, function: run};
}
