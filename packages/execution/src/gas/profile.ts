/**
 * rskj's gas schedule as an @ethereumjs/evm configuration, keyed by activation height
 * (docs/protocol/gas.md §1.3): rskj regtest will run a future upgrade (e.g. `tbd1000`, EIP-2929-style costs) before
 * mainnet does, so each schedule is a profile that applies from its own height.
 */
import type {Chainspec} from "@xchain/chainspec";
import type {GasProfile} from "./gasProfile.ts";
import {vetiver900} from "./vetiver900.ts";

/** Every profile, oldest first. */
export const GAS_PROFILES: readonly GasProfile[] = [vetiver900];

/** The profile in force at `height`: the latest one already active there. */
export function gasProfileAt(chainspec: Chainspec, height: number): GasProfile {
  let current = GAS_PROFILES[0] as GasProfile;
  for (const profile of GAS_PROFILES) if (profile.activationHeight(chainspec) <= height) current = profile;
  return current;
}
