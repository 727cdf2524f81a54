import {bigIntToBytes, bytesToHex, generateAddress, generateAddress2, setLengthLeft} from "@ethereumjs/util";
import {halt, memoryExpansionGas, words} from "./memory.ts";
import type {BlockScope, GasFunction, LogicFunction, RunState} from "./types.ts";

/**
 * rskj's CREATE/CREATE2 gas (docs/protocol/gas.md §4.7, `VM.doCREATE`): 32,000 (the base fee) + memory + 2 per
 * initcode word (+ 6 per word for CREATE2's hashing), and **all** remaining gas goes to the
 * initcode (no 1/64 retention). Initcode above 49,152 bytes is an exceptional halt.
 */
export function createGas(isCreate2: boolean): GasFunction {
  return async (runState, gas, common) => {
    if (runState.interpreter.isStatic()) halt("STATIC_STATE_CHANGE");
    const [, offset, length] = runState.stack.peek(3) as [bigint, bigint, bigint];
    if (length > common.param("maxInitCodeSize")) halt("INITCODE_SIZE_VIOLATION");
    gas += memoryExpansionGas(runState, offset, length, common);
    gas += words(length) * common.param("initCodeWordGas");
    if (isCreate2) gas += words(length) * common.param("keccak256WordGas");
    const gasLeft = runState.interpreter.getGasLeft();
    if (gas > gasLeft) halt("OUT_OF_GAS");
    runState.messageGasLimit = gasLeft - gas;
    return gas;
  };
}

/**
 * Wraps the built-in CREATE/CREATE2 logic with rskj's RSKIP-125 rule (docs/protocol/gas.md §4.7, §7.5): a
 * creation onto an address self-destructed earlier in the same block fails like a collision —
 * 0 is pushed and the forwarded gas is lost.
 */
export function createLogic(builtin: LogicFunction, scope: BlockScope, isCreate2: boolean): LogicFunction {
  return async (runState, common) => {
    if (scope.selfDestructed.size > 0 && scope.selfDestructed.has(createTarget(runState, isCreate2))) {
      await failOnDeletedTarget(runState, isCreate2, common.param("stackLimit"));
      return;
    }
    await builtin(runState, common);
  };
}

function createTarget(runState: RunState, isCreate2: boolean): string {
  const self = runState.interpreter.getAddress().bytes;
  if (!isCreate2) return bytesToHex(generateAddress(self, bigIntToBytes(runState.env.contract.nonce)));
  const [, offset, length, salt] = runState.stack.peek(4) as [bigint, bigint, bigint, bigint];
  const initCode = length === 0n ? new Uint8Array(0) : runState.memory.read(Number(offset), Number(length));
  return bytesToHex(generateAddress2(self, setLengthLeft(bigIntToBytes(salt), 32), initCode));
}

// Mirrors @ethereumjs/evm's collision path: depth and balance failures push 0 without moving
// gas; otherwise the creator's nonce is bumped and the gas handed to the initcode is consumed.
async function failOnDeletedTarget(runState: RunState, isCreate2: boolean, stackLimit: bigint): Promise<void> {
  const [value] = runState.stack.popN(isCreate2 ? 4 : 3) as [bigint];
  const gasLimit = runState.messageGasLimit ?? 0n;
  runState.messageGasLimit = undefined;
  runState.returnBytes = new Uint8Array(0);
  const {env, interpreter} = runState;
  if (BigInt(env.depth) < stackLimit && env.contract.balance >= value) {
    env.contract.nonce += 1n;
    // `_evm` is private to @ethereumjs/evm: test/ethereumjsPrivateField.test.ts guards it on upgrades.
    await interpreter._evm.journal.putAccount(env.address, env.contract);
    interpreter.useGas(gasLimit, "CREATE onto an address deleted in this block");
  }
  runState.stack.push(0n);
}
