/**
 * eth_estimateGas as a search for the lowest gas limit with which the call succeeds:
 * one run at the upper bound (its failure is the answer: a revert in `revertStyle`'s form, -32000 otherwise),
 * then geth's shortcut (the gas the run consumed × 64/63, which covers the 1/64 a CALL keeps back)
 * and a binary search between the gas used and the bound.
 */
import {setImmediate} from "node:timers/promises";
import type {CallResult} from "@xchain/execution";
import {failedCallError} from "../../format/revert.ts";
import {RpcError} from "../../jsonrpc/errors.ts";
import type {RevertErrorStyle} from "../../options.ts";

/** What the search runs and within which bounds. */
export interface GasSearch {
  run(gasLimit: bigint): Promise<CallResult | undefined>;
  /** Below this the executor refuses the message. */
  intrinsicGas: bigint;
  /** The most gas the estimate may be. */
  upperBound: bigint;
  /** Stops the search (client gone, timeout). */
  signal: AbortSignal;
  /** How a revert at the bound is answered (`rpc.revertErrors`). */
  revertStyle: RevertErrorStyle;
}

const OUT_OF_GAS = "out of gas";

const succeeded = (result: CallResult | undefined): boolean => result?.status === true;

/** The lowest gas limit that succeeds, at most `upperBound`. */
export async function estimateGasLimit({
  run,
  intrinsicGas,
  upperBound,
  signal,
  revertStyle,
}: GasSearch): Promise<bigint> {
  if (upperBound < intrinsicGas) throw RpcError.server(`gas required exceeds allowance (${upperBound})`);
  const top = await run(upperBound);
  if (!top?.status) {
    // Out of gas at the bound means the bound is too low; any other failure is the call's own.
    if (top && (top.revertData !== undefined || top.error !== OUT_OF_GAS)) throw failedCallError(top, revertStyle);
    throw RpcError.server(`gas required exceeds allowance (${upperBound})`);
  }
  // Gas used after refunds is a lower bound of the limit needed.
  let low = (top.gasUsed > intrinsicGas ? top.gasUsed : intrinsicGas) - 1n;
  let high = upperBound;
  const optimistic = ((top.gasUsed + top.gasRefund) * 64n) / 63n;
  if (optimistic > low && optimistic < high) {
    if (succeeded(await run(optimistic))) high = optimistic;
    else low = optimistic;
  }
  while (low + 1n < high) {
    // Let other requests and the timeout run between trial runs.
    await setImmediate();
    if (signal.aborted) throw RpcError.timeout();
    const middle = (low + high) / 2n;
    if (succeeded(await run(middle))) high = middle;
    else low = middle;
  }
  return high;
}
