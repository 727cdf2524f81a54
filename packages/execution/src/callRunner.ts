/**
 * Calls (eth_call, and the many runs of a gas estimate) on one EVM per gas profile over an
 * in-memory overlay of the state at the call's root: the overlay is reset after each call, so
 * consecutive calls share the EVM and the state reader's warm caches, and nothing is written.
 */
import type {Common} from "@ethereumjs/common";
import type {EVM} from "@ethereumjs/evm";
import type {Chainspec} from "@xchain/chainspec";
import {OverlayStateManager, type StateReader, type StateSource} from "@xchain/state";
import {SerialQueue} from "@xchain/utils";
import {createBlockEvm, evmBlock} from "./evm.ts";
import type {GasProfile} from "./gas/gasProfile.ts";
import type {BlockScope} from "./gas/types.ts";
import {type MessageInput, runMessage} from "./transactionExecutor.ts";
import type {CallResult, ExecutionBlockContext, ExecutionChainView} from "./types.ts";

/** The EVM of one gas profile, with the state and the chain view BLOCKHASH reads swapped per call. */
interface CallContext {
  profile: GasProfile;
  common: Common;
  evm: EVM;
  state: OverlayStateManager;
  scope: BlockScope;
  chain: {current: ExecutionChainView};
}

/** Runs calls one at a time (they share the EVM and its overlay), reusing the context of the last profile. */
export class CallRunner {
  private context: CallContext | undefined;
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
      const reader = await this.stateSource.reader(stateRoot, common);
      const context = await this.contextFor(profile, common, reader);
      context.state.reset(reader);
      context.chain.current = chain;
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
        context.state.reset();
        context.scope.selfDestructed.clear();
      }
    });
  }

  private async contextFor(profile: GasProfile, common: Common, reader: StateReader): Promise<CallContext> {
    if (this.context?.profile === profile && this.context.common === common) return this.context;
    const scope: BlockScope = {selfDestructed: new Set<string>()};
    const view: {current: ExecutionChainView} = {
      current: {blockHash: async () => undefined, maturedBlock: undefined},
    };
    const delegate: ExecutionChainView = {
      blockHash: (n) => view.current.blockHash(n),
      get maturedBlock() {
        return view.current.maturedBlock;
      },
    };
    const state = new OverlayStateManager(reader);
    const evm = await createBlockEvm(profile, common, state, delegate, scope);
    this.context = {profile, common, evm, state, scope, chain: view};
    return this.context;
  }
}
