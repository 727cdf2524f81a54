/**
 * One sender's transactions by nonce. Those with contiguous nonces from the account nonce are
 * pending (executable now); the others wait behind a gap (queued) and are promoted when it fills.
 */
import type {PoolTransaction} from "./poolTransaction.ts";

/** What a rebase on a new account state removed and promoted. */
export interface RebaseOutcome {
  /** Nonce below the new account nonce: included or replaced on chain. */
  stale: PoolTransaction[];
  /** No longer affordable with the new balance (with every lower nonce). */
  unaffordable: PoolTransaction[];
  /** Queued before, pending now. */
  promoted: PoolTransaction[];
}

/** A sender's pending and queued transactions. */
export class SenderTransactions {
  private readonly byNonce = new Map<bigint, PoolTransaction>();
  private nonceEnd: bigint;
  /** The sum of every transaction's cost. */
  totalCost = 0n;

  constructor(
    readonly address: Uint8Array,
    /** The account nonce at the pool's head: the first nonce that can be pending. */
    private accountNonce: bigint,
  ) {
    this.nonceEnd = accountNonce;
  }

  /** Transactions held, pending and queued. */
  get size(): number {
    return this.byNonce.size;
  }

  /** How many are pending. */
  get pendingCount(): number {
    return Number(this.nonceEnd - this.accountNonce);
  }

  /** The nonce after the pending run: the sender's next nonce counting the pool. */
  get pendingEnd(): bigint {
    return this.nonceEnd;
  }

  get(nonce: bigint): PoolTransaction | undefined {
    return this.byNonce.get(nonce);
  }

  isPending(ptx: PoolTransaction): boolean {
    return ptx.nonce < this.nonceEnd;
  }

  /** Adds or replaces by nonce; returns the replaced one and what became pending (the new one included). */
  put(ptx: PoolTransaction): {replaced?: PoolTransaction; promoted: PoolTransaction[]} {
    const replaced = this.byNonce.get(ptx.nonce);
    this.byNonce.set(ptx.nonce, ptx);
    this.totalCost += ptx.cost - (replaced?.cost ?? 0n);
    if (replaced) return {replaced, promoted: this.isPending(ptx) ? [ptx] : []};
    return {promoted: ptx.nonce === this.nonceEnd ? this.extendPending() : []};
  }

  /** Removes a queued transaction or the last one; a pending removal demotes the nonces after it. */
  delete(ptx: PoolTransaction): void {
    if (this.byNonce.get(ptx.nonce) !== ptx) return;
    this.byNonce.delete(ptx.nonce);
    this.totalCost -= ptx.cost;
    if (ptx.nonce < this.nonceEnd) this.nonceEnd = ptx.nonce;
  }

  /** The pending transactions in nonce order. */
  pending(): PoolTransaction[] {
    const out: PoolTransaction[] = [];
    for (let n = this.accountNonce; n < this.nonceEnd; n++) out.push(this.byNonce.get(n) as PoolTransaction);
    return out;
  }

  /** The queued transactions in nonce order. */
  queued(): PoolTransaction[] {
    return this.sorted().filter((ptx) => !this.isPending(ptx));
  }

  /** The highest nonce: removing it never opens a gap. */
  last(): PoolTransaction | undefined {
    let last: PoolTransaction | undefined;
    for (const ptx of this.byNonce.values()) if (!last || ptx.nonce > last.nonce) last = ptx;
    return last;
  }

  /**
   * Follows a new account state: drops nonces below `accountNonce`, then, walking up the nonces,
   * everything from the first transaction the balance cannot pay together with the lower ones.
   */
  rebase(accountNonce: bigint, balance: bigint): RebaseOutcome {
    const previousEnd = this.nonceEnd;
    const outcome: RebaseOutcome = {stale: [], unaffordable: [], promoted: []};
    let spent = 0n;
    for (const ptx of this.sorted()) {
      if (ptx.nonce < accountNonce) outcome.stale.push(ptx);
      else if (outcome.unaffordable.length > 0 || spent + ptx.cost > balance) outcome.unaffordable.push(ptx);
      else spent += ptx.cost;
    }
    for (const ptx of [...outcome.stale, ...outcome.unaffordable]) this.byNonce.delete(ptx.nonce);
    this.totalCost = spent;
    this.accountNonce = accountNonce;
    this.nonceEnd = accountNonce;
    const nowPending = this.extendPending();
    outcome.promoted = nowPending.filter((ptx) => ptx.nonce >= previousEnd);
    return outcome;
  }

  private extendPending(): PoolTransaction[] {
    const promoted: PoolTransaction[] = [];
    for (let next = this.byNonce.get(this.nonceEnd); next; next = this.byNonce.get(this.nonceEnd)) {
      promoted.push(next);
      this.nonceEnd++;
    }
    return promoted;
  }

  private sorted(): PoolTransaction[] {
    return [...this.byNonce.values()].sort((a, b) => (a.nonce < b.nonce ? -1 : 1));
  }
}
