/**
 * A call object prepared against a block for eth_call and eth_estimateGas: the sender (the zero
 * address when none is given), its balance checked against `value` (-32000 `insufficient funds for
 * transfer`, docs/rpc.md §7), and a runner for any gas limit.
 */
import {
  type CallInput,
  type CallResult,
  type ExecutionBlockContext,
  type ExecutionTracer,
  intrinsicGas,
  type StateOverride,
  TransactionInvalidCode,
  TransactionInvalidError,
} from "@xchain/execution";
import type {BlockHeader} from "@xchain/primitives";
import {equalBytes} from "@xchain/utils";
import {RpcError} from "../../jsonrpc/errors.ts";
import type {RequestContext} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import type {CallRequest} from "../../params/callObject.ts";
import {callEnvironment} from "../../resolve/callEnvironment.ts";

/** A call ready to run at any gas limit. */
export interface PreparedCall {
  header: BlockHeader;
  /** The sender's balance minus the value sent, read when first asked. */
  balanceAfterValue(): Promise<bigint>;
  /** The least gas limit the executor accepts. */
  intrinsicGas: bigint;
  /** Runs the message; undefined when `gasLimit` is below the intrinsic gas. */
  run(gasLimit: bigint): Promise<CallResult | undefined>;
  /** Runs the message told to `tracer` (debug_traceCall); undefined when `gasLimit` is below the intrinsic gas. */
  trace(gasLimit: bigint, tracer: ExecutionTracer): Promise<CallResult | undefined>;
}

const ZERO_ADDRESS = new Uint8Array(20);

/**
 * Refuses a state override where the request may not make one (`rpc.allowCallStateOverride`, a
 * gateway key's grant); an empty override is accepted there, as rskj does (docs/protocol/state-override.md §1).
 */
export function checkStateOverrideAllowed(
  overrides: StateOverride | undefined,
  context: Pick<RequestContext, "limits">,
): void {
  if (overrides === undefined || overrides.length === 0) return;
  const refusal = context.limits.stateOverrideRefusal;
  if (refusal !== undefined) throw RpcError.invalidParams(`state override is not allowed ${refusal}`);
}

/**
 * Checks the balance at `header` (the overridden one when `overrides` sets it) against a nonzero
 * value and returns the runner, whose block context is `header`'s changed by `blockOverrides`
 * (debug_traceCall's); the `signal` of `cancel` stops its runs, asked for only when the
 * executor looks whether the run was aborted (a call in-process at its preemption points, the
 * call service's workers only at calls still running after a while, execution's calls/callService.ts).
 * A call without value reads no balance on this thread: it cannot fail the check, and the run reads
 * the state where it runs. The intrinsic gas is computed here once and carried by every run.
 */
export async function prepareCall(
  {chain, executor}: Pick<ModuleDeps, "chain" | "executor">,
  request: CallRequest,
  header: BlockHeader,
  cancel: Pick<RequestContext, "signal">,
  overrides?: StateOverride,
  blockOverrides?: Partial<ExecutionBlockContext>,
): Promise<PreparedCall> {
  const from = request.from ?? ZERO_ADDRESS;
  const value = request.value ?? 0n;
  const data = request.data ?? new Uint8Array(0);
  const overridden = overrides?.findLast((o) => o.balance !== undefined && equalBytes(o.address, from))?.balance;
  let balance: Promise<bigint> | undefined;
  const balanceOf = (): Promise<bigint> => {
    balance ??= overridden !== undefined ? Promise.resolve(overridden) : readBalance(chain, header, from);
    return balance;
  };
  if (value > 0n && value > (await balanceOf())) throw RpcError.server("insufficient funds for transfer");
  const signal = new RequestAborted(cancel);
  const environment = callEnvironment(chain, header);
  const {chain: view, stateRoot, parentHash} = environment;
  const block = blockOverrides ? {...environment.block, ...blockOverrides} : environment.block;
  const {to} = request;
  const gasPrice = request.gasPrice ?? 0n;
  const intrinsic = intrinsicGas({to, data});
  // One literal of fixed keys: spreads here made new hidden classes per call.
  const input = (gasLimit: bigint): CallInput => ({
    block,
    chain: view,
    stateRoot,
    from,
    to,
    value,
    data,
    gasPrice,
    gasLimit,
    intrinsicGas: intrinsic,
    parentHash,
    signal,
    overrides,
  });
  return {
    header,
    balanceAfterValue: async () => (await balanceOf()) - value,
    intrinsicGas: intrinsic,
    run: (gasLimit) => unlessIntrinsicTooLow(executor.call(input(gasLimit))),
    trace: (gasLimit, tracer) => unlessIntrinsicTooLow(executor.traceCall(input(gasLimit), tracer)),
  };
}

/** The run's result, or undefined when its gas limit was below the intrinsic gas. */
async function unlessIntrinsicTooLow(run: Promise<CallResult>): Promise<CallResult | undefined> {
  try {
    return await run;
  } catch (e) {
    if (e instanceof TransactionInvalidError && e.code === TransactionInvalidCode.INTRINSIC_GAS_TOO_LOW)
      return undefined;
    throw e;
  }
}

async function readBalance(chain: ModuleDeps["chain"], header: BlockHeader, address: Uint8Array): Promise<bigint> {
  return (await chain.stateAfter(header)).getBalance(address);
}

/**
 * Whether a request was aborted, read through to its signal: the request makes its `AbortController`
 * only when the signal is first asked for (transport/requestControl.ts), and a short call never asks.
 */
class RequestAborted {
  constructor(private readonly request: Pick<RequestContext, "signal">) {}

  get aborted(): boolean {
    return this.request.signal.aborted;
  }
}
