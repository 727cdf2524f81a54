/**
 * The federators REMASC pays (rskj `RemascFederationProvider`): the RSK address of each member's key,
 * members in the Bridge's order (by compressed public key, unsigned), docs/protocol/native-contracts.md
 * §11.1. They are the Bridge's genesis federation, the chainspec's `bridge.genesisFederation` (so the
 * `bridge.genesisFederationPublicKeys` override pays its own federators); xchain's federation never
 * changes, so it is the genesis federation at every height.
 */
import type {BridgeConstants} from "@xchain/chainspec";
import {genesisFederationOf} from "../bridge/federation.ts";

/** The federators' RSK addresses in payment order. */
export function federatorAddresses(bridge: BridgeConstants): readonly Uint8Array[] {
  return genesisFederationOf(bridge).members.map((member) => member.rskAddress);
}
