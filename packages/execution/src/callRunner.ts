/**
 * Calls (eth_call, and the many runs of a gas estimate) on a cached state session and EVM per
 * state root: each call runs inside a checkpoint that is reverted afterwards, so consecutive calls
 * on the same head share warm caches instead of opening a session and building an EVM each time.
 */
import type {Common} from "@ethereumjs/common";
import type {EVM} from "@ethereumjs/evm";
import type {Chainspec} from "@xchain/chainspec";
import type {StateSource} from "@xchain/state";
import {bytesToHex, SerialQueue} from "@xchain/utils";
import {createBlockEvm, evmBlock} from "./evm.ts";
import type {GasProfile} from "./gas/profile.ts";
import type {BlockScope} from "./gas/types.ts";
import {type MessageInput, runMessage} from "./transactionExecutor.ts";
import type {CallResult, ExecutionBlockContext, ExecutionChainView} from "./types.ts";

/** The EVM and session of one state root, with the chain view BLOCKHASH reads swapped per call. */
interface CallContext {
  key: string;
  evm: EVM;
  scope: BlockScope;
  chain: {current: ExecutionChainView};
}

/** Runs calls one at a time on the state of their root, reusing the context of the last root. */
export class CallRunner {
  private context: CallContext | undefined;
  // One stateManager cannot interleave two calls' checkpoints: calls take turns.
  private readonly queue = new SerialQueue();

  constructor(
    private readonly chainspec: Chainspec,
    private readonly stateSource: StateSource,
  ) {}

  /** Runs `message` on the state at `stateRoot` as if in `block`; nothing is kept. */
  run(
    profile: GasProfile,
    common: Common,
    stateRoot: Uint8Array,
    block: ExecutionBlockContext,
    chain: ExecutionChainView,
    message: MessageInput,
  ): Promise<CallResult> {
    return this.queue.run(async () => {
      const context = await this.contextFor(profile, common, stateRoot, chain);
      context.chain.current = chain;
      const stateManager = context.evm.stateManager;
      await stateManager.checkpoint();
      try {
        const env = {
          evm: context.evm,
          block,
          evmBlock: evmBlock(block),
          scope: context.scope,
          gasPriceCapActive: this.chainspec.isActive("RSKIP252", block.number),
        };
        return await runMessage(env, message, false);
      } finally {
        await stateManager.revert();
        context.scope.selfDestructed.clear();
      }
    });
  }

  private async contextFor(
    profile: GasProfile,
    common: Common,
    stateRoot: Uint8Array,
    chain: ExecutionChainView,
  ): Promise<CallContext> {
    const key = `${profile.name}:${bytesToHex(stateRoot)}`;
    if (this.context?.key === key) return this.context;
    // Not the import's warm session: taking it would leave the next block a cold one.
    const session = await this.stateSource.openSession(stateRoot, common, {takeReleased: false});
    // An outer checkpoint that is never closed: each call's revert then stops at depth 1, where
    // ethereumjs neither flushes nor clears its caches (which it does on every revert to depth 0).
    await session.stateManager.checkpoint();
    const scope: BlockScope = {selfDestructed: new Set<string>()};
    const view = {current: chain};
    const delegate: ExecutionChainView = {
      blockHash: (n) => view.current.blockHash(n),
      get maturedBlock() {
        return view.current.maturedBlock;
      },
    };
    const evm = await createBlockEvm(profile, common, session.stateManager, delegate, scope);
    this.context = {key, evm, scope, chain: view};
    return this.context;
  }
}
