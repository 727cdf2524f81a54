/**
 * The transaction pool: admission as docs/protocol/transactions.md, pending and queued transactions per
 * sender, same-nonce replacement, limits with eviction, block ordering, and maintenance on every
 * new best block and edit of the head's state. Admissions and maintenance run one at a time, in submission order, so that
 * concurrent adds of one sender cannot interleave their state reads and writes.
 */
import type {EventEmitter} from "node:events";
import type {ChainEvents, ChainReader, NewHeadEvent, StateEditedEvent} from "@xchain/chain";
import type {Chainspec} from "@xchain/chainspec";
import type {Transaction} from "@xchain/primitives";
import {bytesToHex, type CacheUsage, type Logger, noopLogger, SerialQueue} from "@xchain/utils";
import {admit} from "./admission.ts";
import type {PoolContext} from "./context.ts";
import {TxPoolError} from "./errors.ts";
import {HeadView} from "./headView.ts";
import {applyNewHead, applyStateEdit, PoolMaintenance} from "./maintain.ts";
import type {TxPoolOptions} from "./options.ts";
import {bestTransactions} from "./pool/best.ts";
import type {PoolTransaction} from "./pool/poolTransaction.ts";
import {TransactionStore} from "./pool/transactionStore.ts";
import {restoreSnapshot, takeSnapshot} from "./snapshot.ts";
import {
  type ImpersonationPolicy,
  type TxPoolAddResult,
  type TxPoolApi,
  type TxPoolContent,
  TxPoolErrorCode,
  type TxPoolSnapshot,
  type TxPoolStats,
  type TxPoolStatus,
} from "./types.ts";
import {checkSize, decodeTransaction} from "./validate/transaction.ts";

/** What the pool reads of the chain: the best block, state at a block, `newHead` and `stateEdited`. */
export type TxPoolChain = Pick<ChainReader, "head" | "stateAt"> & {readonly events: EventEmitter<ChainEvents>};

/** The components the pool is built with. */
export interface TxPoolModules {
  chainspec: Chainspec;
  chain: TxPoolChain;
  /** Milliseconds since the epoch (queued lifetime); default `Date.now`. */
  nowMs?: () => number;
  /** A failed maintenance run (a state read failed) is logged here and counted in `stats`; default: writes nothing. */
  logger?: Logger;
  /** Why the node cannot store blocks now (a full disk), when it cannot: transactions are refused meanwhile. */
  storageFault?: () => string | undefined;
  /** Which senders impersonated transactions may come from (a dev node's, docs/rpc.md §4.10); absent: none. */
  impersonation?: ImpersonationPolicy;
}

/** The pool; `close()` stops following the chain. */
export class TxPool implements TxPoolApi {
  /** Counts of what maintenance and eviction removed or re-admitted. */
  readonly stats: TxPoolStats = {
    included: 0,
    stale: 0,
    unaffordable: 0,
    expired: 0,
    evicted: 0,
    readmitted: 0,
    readmitRefused: 0,
    maintenanceFailures: 0,
  };
  private readonly store = new TransactionStore();
  private readonly listeners = new Set<(tx: Transaction) => void>();
  private readonly ctx: PoolContext;
  private readonly maintenance: PoolMaintenance;
  private readonly queue = new SerialQueue();
  private sequence = 0;

  private readonly storageFault: (() => string | undefined) | undefined;
  private readonly chain: TxPoolChain;

  constructor(options: TxPoolOptions, modules: TxPoolModules) {
    const {chain, chainspec} = modules;
    this.chain = chain;
    this.storageFault = modules.storageFault;
    const nowMs = modules.nowMs ?? Date.now;
    this.ctx = {
      options,
      chainspec,
      store: this.store,
      view: new HeadView(chain, chain.head()),
      stats: this.stats,
      impersonation: modules.impersonation,
      nowMs,
      nextSequence: () => this.sequence++,
      announce: (promoted) => this.announce(promoted),
    };
    const logger = modules.logger ?? noopLogger;
    const maintain = (run: () => Promise<void>, after: string) =>
      this.queue.run(run).catch((e: unknown) => {
        this.stats.maintenanceFailures++;
        logger.error({err: e}, `txpool maintenance after ${after} failed`);
      });
    this.maintenance = new PoolMaintenance(
      chain.events,
      (event: NewHeadEvent) => maintain(() => applyNewHead(this.ctx, chain, event), "a new block"),
      (event: StateEditedEvent) => maintain(() => applyStateEdit(this.ctx, chain, event), "an edit of the state"),
    );
  }

  add(tx: Transaction): Promise<TxPoolAddResult> {
    return this.admitQueued(tx, false);
  }

  addUnsigned(tx: Transaction): Promise<TxPoolAddResult> {
    return this.admitQueued(tx, true);
  }

  async addRaw(raw: Uint8Array): Promise<TxPoolAddResult> {
    checkSize(raw.length, this.ctx.options.maxTransactionBytes);
    return this.add(decodeTransaction(raw, this.ctx.chainspec.params.chainId));
  }

  get(hash: Uint8Array): Transaction | undefined {
    return this.store.get(bytesToHex(hash))?.tx;
  }

  pendingForBlock(): Transaction[] {
    return bestTransactions(this.store.senders());
  }

  /** Every pending transaction, sender by sender in nonce order. */
  pending(): Transaction[] {
    return [...this.store.senders()].flatMap((sender) => sender.pending().map((ptx) => ptx.tx));
  }

  async nextNonce(sender: Uint8Array): Promise<bigint> {
    const pooled = this.store.sender(bytesToHex(sender));
    return pooled ? pooled.pendingEnd : (await this.ctx.view.account(sender)).nonce;
  }

  status(): TxPoolStatus {
    let pending = 0;
    for (const sender of this.store.senders()) pending += sender.pendingCount;
    return {pending, queued: this.store.size - pending};
  }

  /** The pooled transactions' estimated bytes against `maxPoolBytes` (docs/operations.md §8). */
  cacheUsage(): CacheUsage {
    return {cache: "txpool", bytes: this.store.bytes, budgetBytes: this.ctx.options.maxPoolBytes};
  }

  content(): TxPoolContent {
    const content: TxPoolContent = {pending: new Map(), queued: new Map()};
    for (const sender of this.store.senders()) {
      const key = bytesToHex(sender.address);
      const pending = sender.pending();
      const queued = sender.queued();
      if (pending.length > 0) content.pending.set(key, byNonce(pending));
      if (queued.length > 0) content.queued.set(key, byNonce(queued));
    }
    return content;
  }

  revision(): number {
    return this.store.revision;
  }

  snapshot(): TxPoolSnapshot {
    return takeSnapshot(this.ctx);
  }

  restore(snapshot: TxPoolSnapshot): Promise<number> {
    return this.queue.run(() => restoreSnapshot(this.ctx, this.chain, snapshot));
  }

  drop(hash: Uint8Array): Promise<boolean> {
    return this.queue.run(async () => {
      const ptx = this.store.get(bytesToHex(hash));
      if (ptx) this.store.delete(ptx);
      return ptx !== undefined;
    });
  }

  dropSender(sender: Uint8Array): Promise<number> {
    return this.queue.run(async () => this.store.deleteSender(bytesToHex(sender)));
  }

  dropAll(): Promise<number> {
    return this.queue.run(async () => {
      let dropped = 0;
      for (const key of this.store.senderKeys()) dropped += this.store.deleteSender(key);
      return dropped;
    });
  }

  /** `listener` runs synchronously for each transaction that becomes pending; it must not throw. */
  onPending(listener: (tx: Transaction) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves once every add and maintenance run submitted so far has finished. */
  settled(): Promise<void> {
    return this.queue.settled();
  }

  /** Stops following the chain and waits for the runs in flight. */
  async close(): Promise<void> {
    this.maintenance.close();
    await this.settled();
  }

  private admitQueued(tx: Transaction, unsigned: boolean): Promise<TxPoolAddResult> {
    const fault = this.storageFault?.();
    if (fault !== undefined)
      return Promise.reject(new TxPoolError({code: TxPoolErrorCode.STORAGE_UNAVAILABLE, reason: fault}));
    return this.queue.run(() => admit(this.ctx, tx, unsigned));
  }

  private announce(promoted: readonly PoolTransaction[]): void {
    for (const ptx of promoted) for (const listener of this.listeners) listener(ptx.tx);
  }
}

function byNonce(txs: readonly PoolTransaction[]): Map<bigint, Transaction> {
  return new Map(txs.map((ptx) => [ptx.nonce, ptx.tx]));
}
