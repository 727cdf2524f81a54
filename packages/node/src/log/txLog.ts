/** Transactions entering the pool, at debug (one line each would drown the block lines at info). */
import type {Transaction} from "@xchain/primitives";
import {bytesToPrefixedHex, type Logger} from "@xchain/utils";

/** Logs each transaction `onPending` reports; returns the unsubscribe. */
export function logPendingTransactions(
  onPending: (listener: (tx: Transaction) => void) => () => void,
  logger: Logger,
): () => void {
  return onPending((tx) => {
    const hash = bytesToPrefixedHex(tx.hash());
    logger.debug({hash, nonce: tx.nonce.toString()}, `transaction ${hash} added to the pool`);
  });
}
