/**
 * The pool's rule for impersonated transactions (docs/rpc.md §4.10), whose sender is carried, not
 * recovered: only while the node's dev controls are on, and only from an impersonated sender unless
 * the transaction was sent as unsigned by name (eth_sendUnsignedTransaction); never from the zero address,
 * which sends the REMASC transaction.
 */
import {REMASC_SENDER} from "@xchain/primitives";
import {equalBytes, toData} from "@xchain/utils";
import {TxPoolError} from "../errors.ts";
import {type ImpersonationPolicy, TxPoolErrorCode} from "../types.ts";

/** Refuses an impersonated transaction of `sender` the policy does not allow. */
export function checkImpersonation(
  sender: Uint8Array,
  policy: ImpersonationPolicy | undefined,
  unsigned: boolean,
): void {
  // The REMASC transaction's nonce is its sender's: a transaction of the zero address would break every later block.
  if (equalBytes(sender, REMASC_SENDER)) {
    throw new TxPoolError({code: TxPoolErrorCode.RESERVED_SENDER, sender: toData(sender)});
  }
  if (!policy?.enabled) throw new TxPoolError({code: TxPoolErrorCode.IMPERSONATION_DISABLED, sender: toData(sender)});
  if (!unsigned && !policy.allows(sender)) {
    throw new TxPoolError({code: TxPoolErrorCode.NOT_IMPERSONATED, sender: toData(sender)});
  }
}
