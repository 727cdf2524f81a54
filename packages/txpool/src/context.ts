/** The state admission and maintenance share: the transactions, the head they agree with, options and hooks. */
import type {Chainspec} from "@xchain/chainspec";
import type {HeadView} from "./headView.ts";
import type {TxPoolOptions} from "./options.ts";
import type {PoolTransaction} from "./pool/poolTransaction.ts";
import type {TransactionStore} from "./pool/transactionStore.ts";
import type {ImpersonationPolicy, TxPoolStats} from "./types.ts";

/** The pool's internals, handed to admission and maintenance (which run one at a time). */
export interface PoolContext {
  readonly options: TxPoolOptions;
  readonly chainspec: Chainspec;
  readonly store: TransactionStore;
  /** The head the pool is in step with; maintenance replaces it. */
  view: HeadView;
  readonly stats: TxPoolStats;
  /** Which senders impersonated transactions may come from; absent: none. */
  readonly impersonation: ImpersonationPolicy | undefined;
  /** The clock of `addedAtMs` and the queued lifetime. */
  nowMs(): number;
  /** The next arrival sequence number. */
  nextSequence(): number;
  /** Tells the `onPending` listeners about transactions that became pending, in order. */
  announce(promoted: readonly PoolTransaction[]): void;
}
