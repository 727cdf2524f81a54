/**
 * One listener on the chain's `newHead` and `stateEdited` and on the txpool's pending transactions,
 * fanned out to the polled filters, the WebSocket subscriptions (geth's event system) and the caches. A listener that throws
 * is logged and does not stop the others, nor the chain (whose listeners must not throw).
 */
import type {NewHeadEvent, StateEditedEvent} from "@xchain/chain";
import type {Transaction} from "@xchain/primitives";
import type {TxPoolApi} from "@xchain/txpool";
import type {Logger} from "@xchain/utils";
import type {RpcChain} from "../deps.ts";

type Listener<T> = (value: T) => void;

/** The chain and pool events RPC reacts to. */
export class EventHub {
  private readonly headListeners = new Set<Listener<NewHeadEvent>>();
  private readonly pendingListeners = new Set<Listener<Transaction>>();
  private readonly editListeners = new Set<Listener<StateEditedEvent>>();
  private readonly detachPool: () => void;
  private readonly onHead = (event: NewHeadEvent) => this.emit(this.headListeners, event);
  private readonly onEdit = (event: StateEditedEvent) => this.emit(this.editListeners, event);

  constructor(
    private readonly chain: RpcChain,
    txpool: Pick<TxPoolApi, "onPending">,
    private readonly logger: Logger,
  ) {
    chain.events.on("newHead", this.onHead);
    chain.events.on("stateEdited", this.onEdit);
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

  /** Calls `listener` on every edit of the head's state by a dev control; returns the function that stops it. */
  onStateEdited(listener: Listener<StateEditedEvent>): () => void {
    this.editListeners.add(listener);
    return () => this.editListeners.delete(listener);
  }

  /** Stops listening to the chain and the pool. */
  close(): void {
    this.chain.events.off("newHead", this.onHead);
    this.chain.events.off("stateEdited", this.onEdit);
    this.detachPool();
    this.headListeners.clear();
    this.pendingListeners.clear();
    this.editListeners.clear();
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
