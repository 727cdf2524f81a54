/**
 * The pool's rule for impersonated transactions (docs/rpc.md §4.10), whose sender is carried, not
 * recovered: only while the node's dev controls are on, and only from an impersonated sender unless
 * the transaction was sent as unsigned by name (eth_sendUnsignedTransaction).
 */
import {toData} from "@xchain/utils";
import {TxPoolError} from "../errors.ts";
import {type ImpersonationPolicy, TxPoolErrorCode} from "../types.ts";

/** Refuses an impersonated transaction of `sender` the policy does not allow. */
export function checkImpersonation(
  sender: Uint8Array,
  policy: ImpersonationPolicy | undefined,
  unsigned: boolean,
): void {
  if (!policy?.enabled) throw new TxPoolError({code: TxPoolErrorCode.IMPERSONATION_DISABLED, sender: toData(sender)});
  if (!unsigned && !policy.allows(sender)) {
    throw new TxPoolError({code: TxPoolErrorCode.NOT_IMPERSONATED, sender: toData(sender)});
  }
}
