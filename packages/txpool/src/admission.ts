/**
 * Admission of one transaction (docs/protocol/transactions.md) into the pool: the transaction alone, then
 * against the head and the sender's account, then replacement and limits; on success it is stored and
 * whatever became pending is announced.
 */
import type {Transaction} from "@xchain/primitives";
import {bytesToHex} from "@xchain/utils";
import type {PoolContext} from "./context.ts";
import {TxPoolError, type TxPoolErrorType} from "./errors.ts";
import {POOL_ENTRY_BYTES, poolTransaction} from "./pool/poolTransaction.ts";
import type {SenderTransactions} from "./pool/senderTransactions.ts";
import {type TxPoolAddResult, TxPoolErrorCode} from "./types.ts";
import {checkImpersonation} from "./validate/impersonation.ts";
import {replacementGasPrice, validateAdmission} from "./validate/rules.ts";
import {checkSize, checkTransaction} from "./validate/transaction.ts";

/**
 * Validates and stores `tx`; throws the `TxPoolError` of the first rule it breaks. `unsigned`: an
 * impersonated transaction sent as such (eth_sendUnsignedTransaction), admitted whether or not its
 * sender is impersonated.
 */
export async function admit(ctx: PoolContext, tx: Transaction, unsigned = false): Promise<TxPoolAddResult> {
  const {store, options, chainspec} = ctx;
  checkSize(tx.encode().length, options.maxTransactionBytes);
  const sender = checkTransaction(tx, chainspec.params.chainId);
  if (tx.impersonatedSender) checkImpersonation(sender, ctx.impersonation, unsigned);
  const hash = bytesToHex(tx.hash());
  if (store.get(hash)) throw new TxPoolError({code: TxPoolErrorCode.ALREADY_KNOWN, hash});

  const {view} = ctx;
  const account = await view.account(sender);
  const senderKey = bytesToHex(sender);
  const pooled = store.sender(senderKey);
  const existing = pooled?.get(tx.nonce);
  validateAdmission(tx, {
    blockGasLimit: view.head.header.gasLimit,
    minimumGasPrice: view.head.header.minimumGasPrice,
    gasPriceCapActive: chainspec.isActive("RSKIP252", view.head.number),
    account,
    pooledCost: (pooled?.totalCost ?? 0n) - (existing?.cost ?? 0n),
    maxNonceGap: options.maxNonceGap,
  });
  if (existing) {
    const required = replacementGasPrice(existing.gasPrice, options.priceBumpPercent);
    if (tx.gasPrice < required) {
      throw new TxPoolError({code: TxPoolErrorCode.REPLACEMENT_UNDERPRICED, gasPrice: tx.gasPrice, required});
    }
  } else {
    makeRoom(ctx, tx, senderKey, pooled);
  }

  const ptx = poolTransaction(tx, sender, ctx.nextSequence(), ctx.nowMs());
  const {replaced, promoted} = store.put(ptx, account.nonce);
  ctx.announce(promoted);
  const pending = (store.sender(senderKey) as SenderTransactions).isPending(ptx);
  return {hash: tx.hash(), slot: pending ? "pending" : "queued", ...(replaced && {replaced: replaced.tx})};
}

/**
 * Enforces the per-sender and total limits (transactions and bytes), evicting the cheapest
 * evictable transactions while each pays less. A large newcomer may evict several and still be
 * refused when the next one pays as much: those evicted paid less than it all the same.
 */
function makeRoom(ctx: PoolContext, tx: Transaction, senderKey: string, pooled: SenderTransactions | undefined): void {
  const {store, options} = ctx;
  if (pooled && pooled.size >= options.maxTransactionsPerSender) {
    throw new TxPoolError({code: TxPoolErrorCode.SENDER_LIMIT, limit: options.maxTransactionsPerSender});
  }
  const bytes = tx.encode().length + POOL_ENTRY_BYTES;
  for (;;) {
    const full: TxPoolErrorType | undefined =
      store.size >= options.maxTransactions
        ? {code: TxPoolErrorCode.POOL_FULL, limit: options.maxTransactions, unit: "transactions"}
        : store.bytes + bytes > options.maxPoolBytes
          ? {code: TxPoolErrorCode.POOL_FULL, limit: options.maxPoolBytes, unit: "bytes"}
          : undefined;
    if (!full) return;
    const victim = store.cheapestEvictable({senderKey, nonce: tx.nonce});
    // Never evict a transaction to admit one that pays no more.
    if (!victim || victim.gasPrice >= tx.gasPrice) throw new TxPoolError(full);
    store.delete(victim);
    ctx.stats.evicted++;
  }
}
