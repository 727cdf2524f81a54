/**
 * One listener on the chain's `newHead` and on the txpool's pending transactions, fanned out to
 * the polled filters and the WebSocket subscriptions (geth's event system). A listener that throws
 * is logged and does not stop the others, nor the chain (whose listeners must not throw).
 */
import type {NewHeadEvent} from "@xchain/chain";
import type {Transaction} from "@xchain/primitives";
import type {TxPoolApi} from "@xchain/txpool";
import type {Logger} from "@xchain/utils";
import type {RpcChain} from "../deps.ts";

type Listener<T> = (value: T) => void;

/** The chain and pool events RPC reacts to. */
export class EventHub {
  private readonly headListeners = new Set<Listener<NewHeadEvent>>();
  private readonly pendingListeners = new Set<Listener<Transaction>>();
  private readonly detachPool: () => void;
  private readonly onHead = (event: NewHeadEvent) => this.emit(this.headListeners, event);

  constructor(
    private readonly chain: RpcChain,
    txpool: Pick<TxPoolApi, "onPending">,
    private readonly logger: Logger,
  ) {
    chain.events.on("newHead", this.onHead);
    this.detachPool = txpool.onPending((tx) => this.emit(this.pendingListeners, tx));
  }

  /** Calls `listener` on every new head; returns the function that stops it. */
  onNewHead(listener: Listener<NewHeadEvent>): () => void {
    this.headListeners.add(listener);
    return () => this.headListeners.delete(listener);
  }

  /** Calls `listener` on every transaction that becomes pending; returns the function that stops it. */
  onPendingTransaction(listener: Listener<Transaction>): () => void {
    this.pendingListeners.add(listener);
    return () => this.pendingListeners.delete(listener);
  }

  /** Stops listening to the chain and the pool. */
  close(): void {
    this.chain.events.off("newHead", this.onHead);
    this.detachPool();
    this.headListeners.clear();
    this.pendingListeners.clear();
  }

  private emit<T>(listeners: Set<Listener<T>>, value: T): void {
    for (const listener of listeners) {
      try {
        listener(value);
      } catch (e) {
        this.logger.error({err: e}, "rpc event listener failed");
      }
    }
  }
}
