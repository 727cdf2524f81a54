/**
 * Calls (eth_call, and the many runs of a gas estimate) over an in-memory overlay of the state at
 * the call's root, nothing written. Calls run concurrently, each on a call context (an EVM, its
 * overlay and its preemption) taken from a pool: a context is reset after its call and reused,
 * so consecutive calls keep the EVM and the state reader's warm caches. A call gives the event
 * loop back while it runs and stops when its signal is aborted (preemption.ts); the context of
 * an interrupted call is dropped, since its EVM stopped in the middle of a message.
 */
import type {Common} from "@ethereumjs/common";
import type {EVM} from "@ethereumjs/evm";
import {Address} from "@ethereumjs/util";
import type {Chainspec} from "@xchain/chainspec";
import {OverlayStateManager, type StateReader, type StateSource} from "@xchain/state";
import type {ProfileCommons} from "../common.ts";
import {TransactionInvalidCode, TransactionInvalidError} from "../errors.ts";
import {createBlockEvm, evmBlock} from "../evm.ts";
import type {GasProfile} from "../gas/gasProfile.ts";
import {gasProfileAt} from "../gas/profile.ts";
import type {BlockScope} from "../gas/types.ts";
import {intrinsicGas} from "../intrinsic.ts";
import {createNativeSession} from "../native/dispatch/session.ts";
import type {PreemptionSlot} from "../preemptibleOpcodes.ts";
import {createOpcodeTraceSink} from "../tracing/traceBlock.ts";
import {traceMessage} from "../tracing/traceMessage.ts";
import type {ExecutionTracer} from "../tracing/types.ts";
import {type MessageInput, runMessage, type TransactionEnvironment} from "../transactionExecutor.ts";
import type {CallInput, CallResult, ExecutionBlockContext, ExecutionChainView, StateOverride} from "../types.ts";
import {CallScheduler} from "./preemption.ts";
import {applyStateOverride} from "./stateOverride.ts";

/** One call at a time: an EVM of one gas profile, with the state and the chain view BLOCKHASH reads swapped per call. */
interface CallContext {
  profile: GasProfile;
  common: Common;
  /** Made for a forked chain's views: its EVM stops at the native contracts (docs/forking.md §6). */
  forked: boolean;
  evm: EVM;
  state: OverlayStateManager;
  scope: BlockScope;
  chain: {current: ExecutionChainView};
  preemption: PreemptionSlot;
}

/**
 * Idle contexts kept for reuse; more are made while more calls run at once. As many as the RPC runs
 * at once by default (`maxConcurrentCalls`, docs/rpc.md §8): calls that await state reads overlap,
 * and a context made per call (a new EVM) cost more than the call itself.
 */
const MAX_IDLE_CONTEXTS = 32;

/** Runs calls, each on its own context. */
export class CallRunner {
  private idle: CallContext[] = [];
  private readonly scheduler = new CallScheduler();

  constructor(
    private readonly chainspec: Chainspec,
    private readonly stateSource: StateSource,
    private readonly commons: ProfileCommons,
  ) {}

  /** `BlockExecutor.call`: checks only the intrinsic gas (`TransactionInvalidError`), then runs the message. */
  async call(input: CallInput): Promise<CallResult> {
    return this.run(
      gasProfileAt(this.chainspec, input.block.number),
      this.commons.at(input.block.number),
      input.stateRoot,
      input.block,
      input.chain,
      callMessage(input),
      input.signal,
      input.overrides,
    );
  }

  /**
   * `BlockExecutor.traceCall`: `call` told to `tracer` as one transaction. It runs on an EVM of its
   * own, whose message-making opcodes report to the tracer, with the same preemption as a call.
   */
  async traceCall(input: CallInput, tracer: ExecutionTracer): Promise<CallResult> {
    const message = callMessage(input);
    const {block} = input;
    const profile = gasProfileAt(this.chainspec, block.number);
    const common = this.commons.at(block.number);
    const preemption = this.scheduler.start(input.signal);
    try {
      const state = new OverlayStateManager(await this.stateSource.reader(input.stateRoot, common));
      if (input.overrides) await applyStateOverride(state, input.overrides);
      const scope: BlockScope = {selfDestructed: new Set<string>(), native: createNativeSession(this.chainspec)};
      const sink = createOpcodeTraceSink();
      const extras = {preemption: {current: preemption}, trace: sink};
      const evm = await createBlockEvm(profile, common, state, input.chain, scope, extras);
      return await traceMessage(this.environment(evm, block, scope), sink, message, tracer);
    } finally {
      preemption.finish();
    }
  }

  /**
   * Runs `message` on the state at `stateRoot`, changed by `overrides`, as if in `block`; nothing is kept. Rejects with
   * `ExecutionInterruptedError` once `signal` is aborted.
   */
  private async run(
    profile: GasProfile,
    common: Common,
    stateRoot: Uint8Array,
    block: ExecutionBlockContext,
    chain: ExecutionChainView,
    message: MessageInput,
    signal?: Pick<AbortSignal, "aborted">,
    overrides?: StateOverride,
  ): Promise<CallResult> {
    const preemption = this.scheduler.start(signal);
    let context: CallContext | undefined;
    let reusable = false;
    try {
      const reader = await this.stateSource.reader(stateRoot, common);
      context = await this.acquire(profile, common, reader, chain);
      context.state.reset(reader);
      if (overrides) await applyStateOverride(context.state, overrides);
      context.chain.current = chain;
      context.preemption.current = preemption;
      const result = await runMessage(this.environment(context.evm, block, context.scope), message, false);
      reusable = true;
      return result;
    } finally {
      preemption.finish();
      if (context && reusable) this.release(context);
    }
  }

  private environment(evm: EVM, block: ExecutionBlockContext, scope: BlockScope): TransactionEnvironment {
    return {
      evm,
      block,
      evmBlock: evmBlock(block),
      scope,
      gasPriceCapActive: this.chainspec.isActive("RSKIP252", block.number),
    };
  }

  private async acquire(
    profile: GasProfile,
    common: Common,
    reader: StateReader,
    chain: ExecutionChainView,
  ): Promise<CallContext> {
    const forked = chain.forkAncestry !== undefined;
    // The context released last is the warmest (its EVM and caches are still in the CPU's caches).
    const index = this.idle.findLastIndex((c) => c.profile === profile && c.common === common && c.forked === forked);
    if (index !== -1) return this.idle.splice(index, 1)[0] as CallContext;
    const scope: BlockScope = {selfDestructed: new Set<string>(), native: createNativeSession(this.chainspec)};
    // The EVM is made under the call's own view: whether it is a fork's decides its precompiles.
    const view: {current: ExecutionChainView} = {current: chain};
    const delegate: ExecutionChainView = {
      blockHash: (n) => view.current.blockHash(n),
      get remasc() {
        return view.current.remasc;
      },
      get forkAncestry() {
        return view.current.forkAncestry;
      },
      get headers() {
        return view.current.headers;
      },
    };
    const preemption: PreemptionSlot = {current: undefined};
    const state = new OverlayStateManager(reader);
    const evm = await createBlockEvm(profile, common, state, delegate, scope, {preemption});
    return {profile, common, forked, evm, state, scope, chain: view, preemption};
  }

  private release(context: CallContext): void {
    context.state.reset();
    context.scope.selfDestructed.clear();
    context.preemption.current = undefined;
    // Contexts of an older profile are not kept once calls run on a newer one.
    this.idle = this.idle.filter((c) => c.profile === context.profile && c.common === context.common);
    if (this.idle.length < MAX_IDLE_CONTEXTS) this.idle.push(context);
  }
}

/** The message of a call; a gas limit below its intrinsic gas is a `TransactionInvalidError`. */
function callMessage(input: CallInput): MessageInput {
  const data = input.data ?? new Uint8Array(0);
  const intrinsic = input.intrinsicGas ?? intrinsicGas({to: input.to, data});
  if (input.gasLimit < intrinsic) {
    throw new TransactionInvalidError(
      {code: TransactionInvalidCode.INTRINSIC_GAS_TOO_LOW, gasLimit: input.gasLimit, intrinsicGas: intrinsic},
      `call: gas limit ${input.gasLimit} below intrinsic gas ${intrinsic}`,
    );
  }
  return {
    caller: new Address(input.from),
    to: input.to === undefined ? undefined : new Address(input.to),
    value: input.value ?? 0n,
    data,
    gasLimit: input.gasLimit,
    gasPrice: input.gasPrice ?? 0n,
    intrinsicGas: intrinsic,
  };
}
