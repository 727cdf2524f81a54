/**
 * debug_traceCall (docs/protocol/debug-traces.md §6): geth's method, a call object run at a block as
 * eth_call runs it (the same sender default, balance check, `callGasCap`, block context, pending
 * state and execution slot), traced by the chosen tracer as one transaction under the tracing
 * limits of debug_trace* (docs/rpc.md §8). `stateOverrides` is eth_call's state override, allowed
 * where eth_call's is; a revert is a trace, not an error, as in geth.
 */
import {RpcError} from "../../jsonrpc/errors.ts";
import {RawJson} from "../../jsonrpc/rawJson.ts";
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {blockRef} from "../../params/blockRef.ts";
import {callRequest} from "../../params/callObject.ts";
import {method, optional, param} from "../../params/method.ts";
import {DEFAULT_TRACE_CALL_OPTIONS, traceCallOptions} from "../../params/traceCallOptions.ts";
import {requireHeader} from "../../resolve/blocks.ts";
import {checkStateOverrideAllowed, prepareCall} from "../eth/callRunner.ts";
import {traceWithChosenTracer} from "./chosenTracer.ts";

/** debug_traceCall. */
export function debugTraceCallMethods(
  deps: Pick<ModuleDeps, "chain" | "executor" | "pendingBlock" | "options" | "executions">,
): Record<string, RpcMethod> {
  const {options, executions} = deps;
  const cap = BigInt(options.callGasCap);
  const traceOptions = optional(
    "options",
    traceCallOptions(options.stateOverride.maxAccounts),
    DEFAULT_TRACE_CALL_OPTIONS,
  );
  return {
    /** Handler for `debug_traceCall`: the tracer's result for the call, as debug_traceTransaction's for a transaction */
    traceCall: method(
      [param("transaction", callRequest), param("block", blockRef), traceOptions],
      async (request, block, opts, context) => {
        checkStateOverrideAllowed(opts.stateOverrides, context);
        const header = await requireHeader(deps.chain, block, options, deps.pendingBlock);
        const gas = request.gas !== undefined && request.gas < cap ? request.gas : cap;
        return executions.run(context, async () => {
          const prepared = await prepareCall(deps, request, header, context, opts.stateOverrides, opts.blockOverrides);
          const [traced] = await traceWithChosenTracer(opts, context, async (tracer) => {
            const result = await prepared.trace(gas, tracer);
            if (!result) throw RpcError.server(`intrinsic gas too low: ${gas} < ${prepared.intrinsicGas}`);
          });
          if (!traced) throw new Error("debug_traceCall: the tracer gave no result");
          return new RawJson(Buffer.from(traced.json));
        });
      },
    ),
  };
}
