/**
 * The shape of one rskj gas schedule (docs/protocol/gas.md §1.3), apart from the list of schedules in
 * profile.ts so that each schedule's file can name it without importing that list.
 */
import type {Common} from "@ethereumjs/common";
import type {CustomPrecompile} from "@ethereumjs/evm";
import type {Chainspec} from "@xchain/chainspec";
import type {MessageTracker} from "../native/dispatch/adapter.ts";
import type {BlockScope, CustomOpcode} from "./types.ts";

/** One rskj gas schedule. */
export interface GasProfile {
  /** The rskj network upgrade whose rules it reproduces. */
  readonly name: string;
  /** The first block of `chainspec`'s network the profile applies to. */
  activationHeight(chainspec: Chainspec): number;
  /** EVM params merged over shanghai's, scoped to the shanghai hardfork (docs/protocol/gas.md §11.2). */
  readonly params: Readonly<Record<string, number>>;
  /** The opcodes whose gas or semantics differ from shanghai's, for one block (docs/protocol/gas.md §11.3). */
  opcodes(common: Common, scope: BlockScope): CustomOpcode[];
  /**
   * The precompiles that differ from shanghai's (docs/protocol/gas.md §11.4), reading the running message (its
   * depth) from `messages`, which the EVM's `beforeMessage` keeps.
   */
  precompiles(common: Common, messages: MessageTracker): CustomPrecompile[];
}
