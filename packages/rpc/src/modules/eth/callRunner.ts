/**
 * A call object prepared against a block for eth_call and eth_estimateGas: the sender (the zero
 * address when none is given), its balance checked against `value` (-32000 `insufficient funds for
 * transfer`, docs/rpc.md §7), and a runner for any gas limit.
 */
import {
  type CallResult,
  intrinsicGas,
  type StateOverride,
  TransactionInvalidCode,
  TransactionInvalidError,
} from "@xchain/execution";
import type {BlockHeader} from "@xchain/primitives";
import {equalBytes} from "@xchain/utils";
import {RpcError} from "../../jsonrpc/errors.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import type {CallRequest} from "../../params/callObject.ts";
import {callEnvironment} from "../../resolve/callEnvironment.ts";

/** A call ready to run at any gas limit. */
export interface PreparedCall {
  header: BlockHeader;
  /** The sender's balance minus the value sent. */
  balanceAfterValue: bigint;
  /** The least gas limit the executor accepts. */
  intrinsicGas: bigint;
  /** Runs the message; undefined when `gasLimit` is below the intrinsic gas. */
  run(gasLimit: bigint): Promise<CallResult | undefined>;
}

const ZERO_ADDRESS = new Uint8Array(20);

/**
 * Checks the balance at `header` (the overridden one when `overrides` sets it) and returns the
 * runner; `signal` stops its runs.
 */
export async function prepareCall(
  {chain, executor}: Pick<ModuleDeps, "chain" | "executor">,
  request: CallRequest,
  header: BlockHeader,
  signal: AbortSignal,
  overrides?: StateOverride,
): Promise<PreparedCall> {
  const from = request.from ?? ZERO_ADDRESS;
  const value = request.value ?? 0n;
  const data = request.data ?? new Uint8Array(0);
  const overridden = overrides?.findLast((o) => o.balance !== undefined && equalBytes(o.address, from))?.balance;
  const balance = overridden ?? (await (await chain.stateAfter(header)).getBalance(from));
  if (value > balance) throw RpcError.server("insufficient funds for transfer");
  const environment = callEnvironment(chain, header);
  const input = {...environment, from, to: request.to, value, data, gasPrice: request.gasPrice ?? 0n, overrides};
  return {
    header,
    balanceAfterValue: balance - value,
    intrinsicGas: intrinsicGas({to: request.to, data}),
    run: async (gasLimit) => {
      try {
        return await executor.call({...input, gasLimit, signal});
      } catch (e) {
        if (e instanceof TransactionInvalidError && e.code === TransactionInvalidCode.INTRINSIC_GAS_TOO_LOW)
          return undefined;
        throw e;
      }
    },
  };
}
