/**
 * The federators REMASC pays (rskj `RemascFederationProvider`): the RSK address of each member's key,
 * members in the Bridge's order (by compressed public key, unsigned), docs/protocol/native-contracts.md
 * §11.1. xchain's federation never changes, so it is the genesis federation's at every height.
 */
import {publicToAddress} from "@ethereumjs/util";
import type {RemascParams} from "@xchain/chainspec";
import {compareBytes} from "@xchain/utils";

const cache = new WeakMap<readonly Uint8Array[], readonly Uint8Array[]>();

/** The federators' RSK addresses in payment order (computed once per key list). */
export function federatorAddresses(params: Pick<RemascParams, "federationPublicKeys">): readonly Uint8Array[] {
  const keys = params.federationPublicKeys;
  let addresses = cache.get(keys);
  if (!addresses) {
    // `publicToAddress` decompresses a 33-byte key (sanitize) before hashing its coordinates.
    addresses = [...keys].sort(compareBytes).map((key) => publicToAddress(key, true));
    cache.set(keys, addresses);
  }
  return addresses;
}
