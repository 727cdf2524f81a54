/**
 * One transaction around `evm.runCall` (not @ethereumjs/vm), as rskj's `TransactionExecutor`:
 * validity, gas bought up front, execution, refund capped at half the gas used, fees to REMASC,
 * self-destructed accounts deleted, no EIP-161 clean-up, transient storage cleared.
 */
import {type EVM, EVMError} from "@ethereumjs/evm";
import {Account, Address, hexToBytes} from "@ethereumjs/util";
import {isRemascTransaction, REMASC_ADDRESS, type Transaction, TransactionSignatureError} from "@xchain/primitives";
import {TransactionInvalidCode, TransactionInvalidError} from "./errors.ts";
import type {EvmBlock} from "./evm.ts";
import type {BlockScope} from "./gas/types.ts";
import {intrinsicGas, MAX_INITCODE_SIZE} from "./intrinsic.ts";
import {NATIVE_CONTRACT_FAILURE_ERROR} from "./native/dispatch/adapter.ts";
import {gasPriceViolation} from "./rules/gasPriceRule.ts";
import type {CallResult, ExecutionBlockContext} from "./types.ts";

const REMASC = new Address(REMASC_ADDRESS);

/** What the transactions of one block run against. */
export interface TransactionEnvironment {
  readonly evm: EVM;
  readonly block: ExecutionBlockContext;
  readonly evmBlock: EvmBlock;
  readonly scope: BlockScope;
  /** Whether RSKIP-252's gas price cap applies at this height. */
  readonly gasPriceCapActive: boolean;
}

/** A message to run: a transaction's fields with its sender, or a call's. */
export interface MessageInput {
  caller: Address;
  to: Address | undefined;
  value: bigint;
  data: Uint8Array;
  gasLimit: bigint;
  gasPrice: bigint;
  intrinsicGas: bigint;
  /** The transaction's hash; absent for a call. */
  transactionHash?: Uint8Array;
  /** The key that signed the transaction; absent for a call and an impersonated transaction. */
  transactionPublicKey?: Uint8Array | undefined;
}

function invalid(type: ConstructorParameters<typeof TransactionInvalidError>[0], message: string): never {
  throw new TransactionInvalidError(type, `tx invalid: ${message}`);
}

function recoverSender(tx: Transaction): Address {
  try {
    return new Address(tx.sender());
  } catch (e) {
    if (e instanceof TransactionSignatureError) {
      invalid({code: TransactionInvalidCode.BAD_SIGNATURE, reason: e.message}, e.message);
    }
    throw e;
  }
}

/**
 * rskj's checks before a transaction runs (block tx rules and `TransactionExecutor.init`), in
 * this order; the first failure is a `TransactionInvalidError` and nothing has been changed.
 */
export async function validateTransaction(
  env: TransactionEnvironment,
  tx: Transaction,
  blockGasUsed: bigint,
): Promise<MessageInput> {
  const {minimumGasPrice, gasLimit: blockGasLimit} = env.block;
  // The REMASC rule's second clause (primitives' transaction/remasc.ts): every transaction checked
  // here comes before the block's closing one.
  if (isRemascTransaction(tx))
    invalid({code: TransactionInvalidCode.UNEXPECTED_REMASC}, "a REMASC transaction that is not the last of its block");
  const gasPrice = gasPriceViolation(tx.gasPrice, minimumGasPrice, env.gasPriceCapActive);
  if (gasPrice) {
    invalid(
      gasPrice,
      gasPrice.code === TransactionInvalidCode.GAS_PRICE_BELOW_MINIMUM
        ? `gas price ${tx.gasPrice} below the minimum ${minimumGasPrice}`
        : `gas price ${tx.gasPrice} above the cap ${gasPrice.cap}`,
    );
  }
  if (tx.to === undefined && tx.data.length > MAX_INITCODE_SIZE) {
    invalid(
      {code: TransactionInvalidCode.INITCODE_TOO_LARGE, size: tx.data.length, max: MAX_INITCODE_SIZE},
      `initcode of ${tx.data.length} bytes exceeds ${MAX_INITCODE_SIZE}`,
    );
  }
  const intrinsic = intrinsicGas(tx);
  if (tx.gasLimit < intrinsic) {
    invalid(
      {code: TransactionInvalidCode.INTRINSIC_GAS_TOO_LOW, gasLimit: tx.gasLimit, intrinsicGas: intrinsic},
      `gas limit ${tx.gasLimit} below the intrinsic gas ${intrinsic}`,
    );
  }
  if (tx.gasLimit + blockGasUsed > blockGasLimit) {
    invalid(
      {code: TransactionInvalidCode.BLOCK_GAS_LIMIT_EXCEEDED, gasLimit: tx.gasLimit, blockGasUsed, blockGasLimit},
      `gas limit ${tx.gasLimit} + ${blockGasUsed} used exceeds the block gas limit ${blockGasLimit}`,
    );
  }
  const caller = recoverSender(tx);
  const account = await env.evm.stateManager.getAccount(caller);
  const nonce = account?.nonce ?? 0n;
  if (tx.nonce !== nonce) {
    invalid(
      {code: TransactionInvalidCode.NONCE_MISMATCH, expected: nonce, actual: tx.nonce},
      `nonce ${tx.nonce}, expected ${nonce}`,
    );
  }
  const required = tx.gasLimit * tx.gasPrice + tx.value;
  const balance = account?.balance ?? 0n;
  if (balance < required) {
    invalid(
      {code: TransactionInvalidCode.INSUFFICIENT_BALANCE, required, balance},
      `balance ${balance} below gasLimit × gasPrice + value = ${required}`,
    );
  }
  const to = tx.to === undefined ? undefined : new Address(tx.to);
  return {
    caller,
    to,
    value: tx.value,
    data: tx.data,
    gasLimit: tx.gasLimit,
    gasPrice: tx.gasPrice,
    intrinsicGas: intrinsic,
    transactionHash: tx.hash(),
    transactionPublicKey: tx.signerPublicKey(),
  };
}

async function addBalance(evm: EVM, address: Address, amount: bigint): Promise<void> {
  const existing = await evm.stateManager.getAccount(address);
  // Adding zero changes nothing but a missing account, which rskj creates (docs/protocol/gas.md §4).
  if (amount === 0n && existing) return;
  const account = existing ?? new Account();
  account.balance += amount;
  await evm.stateManager.putAccount(address, account);
}

/** The error a message ends with, rskj's way: a failing native contract at the top level is none. */
function topLevelError(error: string | undefined): string | undefined {
  return error === NATIVE_CONTRACT_FAILURE_ERROR ? undefined : error;
}

/**
 * Runs a message. With `charge` (a transaction) the gas is bought up front, the unused part
 * returned and the fee credited to REMASC; without it (a call) no balance moves for gas.
 */
export async function runMessage(
  env: TransactionEnvironment,
  message: MessageInput,
  charge: boolean,
): Promise<CallResult> {
  const {evm} = env;
  const {caller, gasLimit, gasPrice} = message;
  if (charge) await addBalance(evm, caller, -(gasLimit * gasPrice));
  // The native contracts' view of this message; a call is rskj's local call (docs/protocol/native-contracts.md §2.3).
  const native = env.scope.native;
  native.block = env.block;
  native.localCall = !charge;
  native.origin = caller.bytes;
  native.transactionHash = message.transactionHash;
  native.transactionPublicKey = message.transactionPublicKey;
  const result = await evm.runCall({
    block: env.evmBlock,
    gasPrice,
    origin: caller,
    caller,
    to: message.to,
    value: message.value,
    data: message.data,
    gasLimit: gasLimit - message.intrinsicGas,
    skipBalance: !charge,
  });
  const exec = result.execResult;
  // rskj's receipt of a transaction whose own `to` is a failing native contract says success
  // (docs/protocol/native-contracts.md §2.1): the failure is not an error of the message.
  const error = topLevelError(exec.exceptionError?.error);
  const used = message.intrinsicGas + exec.executionGasUsed;
  // docs/protocol/gas.md §5: refund = min(counter, gasUsed / 2), dropped on failure.
  const counter = error === undefined ? (exec.gasRefund ?? 0n) : 0n;
  const gasRefund = counter < used / 2n ? counter : used / 2n;
  const gasUsed = used - gasRefund;
  if (charge) {
    await addBalance(evm, caller, (gasLimit - gasUsed) * gasPrice);
    await addBalance(evm, REMASC, gasUsed * gasPrice);
  }
  // rskj deletes self-destructed accounts at the end of the transaction and remembers them for
  // the rest of the block (RSKIP-125, docs/protocol/gas.md §7.5).
  for (const hex of exec.selfdestruct?.keys() ?? []) {
    await evm.journal.deleteAccount(new Address(hexToBytes(hex)));
    env.scope.selfDestructed.add(hex);
  }
  // No EIP-161: forget touched accounts instead of deleting the empty ones (docs/protocol/gas.md §7.1).
  evm.journal.cleanJournal();
  evm.transientStorage.clear();
  const outcome: CallResult = {
    status: error === undefined,
    gasUsed,
    gasRefund,
    returnValue: exec.returnValue,
    logs: (exec.logs ?? []).map(([address, topics, data]) => ({address, topics, data})),
  };
  if (error !== undefined) outcome.error = error;
  if (error === EVMError.errorMessages.REVERT) outcome.revertData = exec.returnValue;
  if (error === undefined && message.to === undefined && result.createdAddress) {
    outcome.contractAddress = result.createdAddress.bytes;
  }
  return outcome;
}
