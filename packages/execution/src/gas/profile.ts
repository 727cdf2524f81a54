/**
 * rskj's gas schedule as an @ethereumjs/evm configuration, keyed by activation height (gas.md
 * §1.3): rskj regtest will run a future upgrade (e.g. `tbd1000`, EIP-2929-style costs) before
 * mainnet does, so each schedule is a profile that applies from its own height.
 */
import type {Common} from "@ethereumjs/common";
import type {CustomPrecompile} from "@ethereumjs/evm";
import type {Chainspec} from "@xchain/chainspec";
import type {BlockScope, CustomOpcode} from "./types.ts";
import {vetiver900} from "./vetiver900.ts";

/** One rskj gas schedule. */
export interface GasProfile {
  /** The rskj network upgrade whose rules it reproduces. */
  readonly name: string;
  /** The first block of `chainspec`'s network the profile applies to. */
  activationHeight(chainspec: Chainspec): number;
  /** EVM params merged over shanghai's, scoped to the shanghai hardfork (gas.md §11.2). */
  readonly params: Readonly<Record<string, number>>;
  /** The opcodes whose gas or semantics differ from shanghai's, for one block (gas.md §11.3). */
  opcodes(common: Common, scope: BlockScope): CustomOpcode[];
  /** The precompiles that differ from shanghai's (gas.md §11.4). */
  precompiles(common: Common): CustomPrecompile[];
}

/** Every profile, oldest first. */
export const GAS_PROFILES: readonly GasProfile[] = [vetiver900];

/** The profile in force at `height`: the latest one already active there. */
export function gasProfileAt(chainspec: Chainspec, height: number): GasProfile {
  let current = GAS_PROFILES[0] as GasProfile;
  for (const profile of GAS_PROFILES) if (profile.activationHeight(chainspec) <= height) current = profile;
  return current;
}
