/**
 * The signature of an impersonated transaction (docs/rpc.md §4.10): a dev node sends from an
 * address whose key it does not hold (anvil_impersonateAccount, eth_sendUnsignedTransaction) by
 * carrying the sender beside the transaction instead of recovering it. The transaction still needs
 * v, r and s on the wire; they are a fixed form that names the sender:
 *
 *   v = the chain id's v with recovery id 0, r = 2^160 + sender, s = 1.
 *
 * The hash stays keccak-256 of the encoding, and as r holds the sender, two senders' otherwise equal
 * transactions (same nonce, fields and chain id) have different hashes. No key signs this form in
 * practice, but anyone can write it: only the sender a node carried itself is believed (the pool's
 * impersonation rule, the chain's record of its own blocks); a received one is recovered as usual.
 */
import {bigIntToFixedBytes, bytesToBigInt} from "@xchain/utils";
import {ADDRESS_LENGTH} from "./fields.ts";

const R_BASE = 1n << 160n;
/** The s of every impersonated transaction. */
export const IMPERSONATION_S = 1n;

/** r and s of the impersonated transaction of `sender` (20 bytes). */
export function impersonationSignature(sender: Uint8Array): {r: bigint; s: bigint} {
  if (sender.length !== ADDRESS_LENGTH) throw new RangeError(`a sender has 20 bytes, not ${sender.length}`);
  return {r: R_BASE + bytesToBigInt(sender), s: IMPERSONATION_S};
}

/** The sender an impersonation signature names, or undefined when (r, s) is not one (two comparisons). */
export function impersonationClaim(r: bigint, s: bigint): Uint8Array | undefined {
  if (s !== IMPERSONATION_S || r >> 160n !== 1n) return undefined;
  return bigIntToFixedBytes(r - R_BASE, ADDRESS_LENGTH);
}
