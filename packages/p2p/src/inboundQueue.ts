/**
 * The messages peers sent that the p2p layer holds and has not finished handling
 * (`debug_wireProtocolQueueSize`, docs/p2p.md "Queued messages"): gossip waiting for the node's
 * verdict, and requests waiting for their response to be written.
 */
export class InboundQueue {
  private held = 0;

  /** Messages held now. */
  get size(): number {
    return this.held;
  }

  /** Counts one message while `work` runs, however it ends. */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    this.held++;
    try {
      return await work();
    } finally {
      this.held--;
    }
  }
}
