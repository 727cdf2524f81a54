/** Every pooled transaction, by hash and by sender: the pool's state, changed only by admission and maintenance. */
import type {PoolTransaction} from "./poolTransaction.ts";
import {type RebaseOutcome, SenderTransactions} from "./senderTransactions.ts";

/** The pool's transactions. */
export class TransactionStore {
  private readonly byHash = new Map<string, PoolTransaction>();
  private readonly bySender = new Map<string, SenderTransactions>();
  private changes = 0;
  private heldBytes = 0;

  /** Bumped by every change to the pool's transactions (the pending block is rebuilt when it moves). */
  get revision(): number {
    return this.changes;
  }

  /** Transactions held, pending and queued. */
  get size(): number {
    return this.byHash.size;
  }

  /** Estimated bytes held (`PoolTransaction.bytes` summed). */
  get bytes(): number {
    return this.heldBytes;
  }

  get(hash: string): PoolTransaction | undefined {
    return this.byHash.get(hash);
  }

  sender(senderKey: string): SenderTransactions | undefined {
    return this.bySender.get(senderKey);
  }

  /** The senders with transactions in the pool. */
  senders(): IterableIterator<SenderTransactions> {
    return this.bySender.values();
  }

  /** The sender keys (lower-case hex) with transactions in the pool. */
  senderKeys(): string[] {
    return [...this.bySender.keys()];
  }

  /** Adds (or replaces by nonce) a transaction whose sender's account nonce is `accountNonce`. */
  put(ptx: PoolTransaction, accountNonce: bigint): {replaced?: PoolTransaction; promoted: PoolTransaction[]} {
    let sender = this.bySender.get(ptx.senderKey);
    if (!sender) {
      sender = new SenderTransactions(ptx.sender, accountNonce);
      this.bySender.set(ptx.senderKey, sender);
    }
    const outcome = sender.put(ptx);
    this.changes++;
    if (outcome.replaced) this.forget(outcome.replaced);
    this.byHash.set(ptx.hash, ptx);
    this.heldBytes += ptx.bytes;
    return outcome;
  }

  /** Removes a transaction; a pending one's later nonces become queued behind the gap. */
  delete(ptx: PoolTransaction): void {
    const sender = this.bySender.get(ptx.senderKey);
    if (!sender || this.byHash.get(ptx.hash) !== ptx) return;
    sender.delete(ptx);
    this.changes++;
    this.forget(ptx);
    if (sender.size === 0) this.bySender.delete(ptx.senderKey);
  }

  /** Removes every transaction (a dev snapshot's restore). */
  clear(): void {
    this.byHash.clear();
    this.bySender.clear();
    this.heldBytes = 0;
    this.changes++;
  }

  /** Removes every transaction of a sender; returns how many. */
  deleteSender(senderKey: string): number {
    const sender = this.bySender.get(senderKey);
    if (!sender) return 0;
    const all = [...sender.pending(), ...sender.queued()];
    // From the highest nonce down: no removal demotes the ones still to go.
    for (const ptx of all.reverse()) this.delete(ptx);
    return all.length;
  }

  /** Applies a sender's new account state (see `SenderTransactions.rebase`). */
  rebase(senderKey: string, accountNonce: bigint, balance: bigint): RebaseOutcome | undefined {
    const sender = this.bySender.get(senderKey);
    if (!sender) return undefined;
    const outcome = sender.rebase(accountNonce, balance);
    this.changes++;
    for (const ptx of [...outcome.stale, ...outcome.unaffordable]) this.forget(ptx);
    if (sender.size === 0) this.bySender.delete(senderKey);
    return outcome;
  }

  /** Queued transactions admitted before `cutoffMs`. */
  queuedBefore(cutoffMs: number): PoolTransaction[] {
    const out: PoolTransaction[] = [];
    for (const sender of this.bySender.values()) {
      if (sender.pendingCount === sender.size) continue;
      for (const ptx of sender.queued()) if (ptx.addedAtMs < cutoffMs) out.push(ptx);
    }
    return out;
  }

  /**
   * The cheapest transaction that can go without opening a nonce gap (a sender's last), the most
   * recent among equals; `keep` (the incoming transaction's sender and nonce) protects the lower
   * nonces of that sender, whose removal would leave the incoming one behind a gap.
   */
  cheapestEvictable(keep: {senderKey: string; nonce: bigint}): PoolTransaction | undefined {
    let victim: PoolTransaction | undefined;
    for (const [key, sender] of this.bySender) {
      const last = sender.last();
      if (!last || (key === keep.senderKey && last.nonce < keep.nonce)) continue;
      if (
        !victim ||
        last.gasPrice < victim.gasPrice ||
        (last.gasPrice === victim.gasPrice && last.sequence > victim.sequence)
      ) {
        victim = last;
      }
    }
    return victim;
  }

  private forget(ptx: PoolTransaction): void {
    this.byHash.delete(ptx.hash);
    this.heldBytes -= ptx.bytes;
  }
}
