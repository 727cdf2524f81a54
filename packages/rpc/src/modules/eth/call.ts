/**
 * eth_call (block required, as on the service; without `to` it simulates a contract creation, as
 * geth and rskj do and as web3.js relies on before sending a deployment; a state override as third
 * parameter where `allowCallStateOverride` permits, docs/protocol/state-override.md) and
 * eth_estimateGas (the same override, as geth takes it) (docs/rpc.md §4.4). Without a gas limit a call gets `callGasCap`; the estimate is bounded by the
 * block gas limit, `gasEstimationCap` (rskj's 6,800,000), the caller's gas and what the sender can
 * pay at its gasPrice. Each request holds one execution slot of its client while it runs, and
 * stops when the request times out or its client leaves (docs/rpc.md §8).
 */
import type {BlockHeader} from "@xchain/primitives";
import {toData, toQuantity} from "@xchain/utils";
import {type CachedCallAnswer, CallResultCache} from "../../caches/callCache.ts";
import {failedCallError} from "../../format/revert.ts";
import {RpcError} from "../../jsonrpc/errors.ts";
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {revertErrorStyle} from "../../options.ts";
import {blockRef, PENDING} from "../../params/blockRef.ts";
import {callRequest} from "../../params/callObject.ts";
import {method, optional, param} from "../../params/method.ts";
import {stateOverride} from "../../params/stateOverride.ts";
import {headHeaderFor, requireHeader} from "../../resolve/blocks.ts";
import {checkStateOverrideAllowed, prepareCall} from "./callRunner.ts";
import {estimateGasLimit} from "./gasEstimator.ts";

const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** eth_call and eth_estimateGas. */
export function ethCallMethods(
  deps: Pick<ModuleDeps, "chain" | "chainspec" | "executor" | "pendingBlock" | "options" | "executions" | "callCache">,
): Record<string, RpcMethod> {
  const {options, executions, callCache} = deps;
  const revertStyle = revertErrorStyle(options.revertErrors, deps.chainspec.params.name);
  const overrideParam = optional("stateOverride", stateOverride(options.stateOverride.maxAccounts));
  return {
    /** Handler for `eth_call`: a revert is -32015 or 3 (`rpc.revertErrors`) with the reason and payload (docs/rpc.md §7) */
    call: method(
      [param("transaction", callRequest), param("block", blockRef), overrideParam],
      (request, block, overrides, context) => {
        checkStateOverrideAllowed(overrides, context);
        const cap = BigInt(options.callGasCap);
        const gas = min(request.gas ?? cap, cap);
        /** A repeated call at the same block is answered without a slot or a run. */
        const answerAt = (header: BlockHeader): string | Promise<string> => {
          const key = overrides?.length ? undefined : CallResultCache.key(header.hash(), request, gas);
          const cached = key === undefined ? undefined : callCache.get(key);
          return cached ? answerOf(cached) : runAndKeep(header, key);
        };
        const runAndKeep = async (header: BlockHeader, key: string | undefined): Promise<string> => {
          // An edit of the state during the run clears the cache: this answer is not kept then.
          const since = callCache.currentGeneration();
          const answer = await executions.run(context, async (): Promise<CachedCallAnswer> => {
            const prepared = await prepareCall(deps, request, header, context, overrides);
            const result = await prepared.run(gas);
            if (!result) return {error: RpcError.server(`intrinsic gas too low: ${gas} < ${prepared.intrinsicGas}`)};
            return result.status ? {ok: toData(result.returnValue)} : {error: failedCallError(result, revertStyle)};
          });
          if (key !== undefined) callCache.set(key, answer, since);
          return answerOf(answer);
        };
        // At the head no lookup is needed: a kept answer goes back at once, without a promise.
        const head = headHeaderFor(deps.chain, block);
        return head ? answerAt(head) : requireHeader(deps.chain, block, options, deps.pendingBlock).then(answerAt);
      },
    ),
    /** Handler for `eth_estimateGas`: the lowest gas limit that succeeds */
    estimateGas: method(
      [param("transaction", callRequest), optional("block", blockRef, PENDING), overrideParam],
      (request, block, overrides, context) =>
        executions.run(context, async () => {
          checkStateOverrideAllowed(overrides, context);
          const header = await requireHeader(deps.chain, block, options, deps.pendingBlock);
          const prepared = await prepareCall(deps, request, header, context, overrides);
          let bound = min(prepared.header.gasLimit, BigInt(options.gasEstimationCap));
          if (request.gas !== undefined) bound = min(bound, request.gas);
          const gasPrice = request.gasPrice ?? 0n;
          if (gasPrice > 0n) bound = min(bound, (await prepared.balanceAfterValue()) / gasPrice);
          const estimate = await estimateGasLimit({
            run: prepared.run,
            intrinsicGas: prepared.intrinsicGas,
            upperBound: bound,
            signal: context.signal,
            revertStyle,
          });
          return toQuantity(estimate);
        }),
    ),
  };
}

/** The result of a kept answer, or its error thrown. */
function answerOf(answer: CachedCallAnswer): string {
  if ("error" in answer) throw answer.error;
  return answer.ok;
}
