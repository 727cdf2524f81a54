/**
 * Who a request runs for, as the protocol core sees it (docs/gateway.md §2): admission (an API key
 * with the gateway on, otherwise the node's own settings per client address) makes one `Principal`,
 * and dispatch and the handlers read it through `RequestContext` without knowing which kind it is.
 */

/**
 * The limits one request runs under: the node's options already narrowed by its principal's, so
 * that a handler reads one value and never merges.
 */
export interface RequestLimits {
  /** Most requests in one batch: `rpc.maxBatchSize`, or the key's when lower. */
  readonly maxBatchSize: number;
  /** Most blocks one eth_getLogs range may cover (-32005 beyond); undefined: no cap (long ranges are read in chunks). */
  readonly logsMaxBlockRange: number | undefined;
  /** Most blocks one trace_filter may cover: `rpc.trace.maxBlockRange`, or the key's when lower. */
  readonly traceMaxBlockRange: number;
  /** Subscriptions the principal's connections may hold together; undefined: only the node's caps. */
  readonly maxSubscriptions: number | undefined;
  /**
   * Why eth_call/eth_estimateGas/debug_traceCall refuse a state override, completing "state override is not allowed
   * …" (`for API key 3fa2c1d0`, `on this node (rpc.allowCallStateOverride)`); undefined when allowed.
   */
  readonly stateOverrideRefusal: string | undefined;
}

/** What a principal needs of a WebSocket connection: its subscriptions are counted over them. */
export interface PrincipalConnection {
  onClose(listener: () => void): void;
}

/** The sender of a request: which methods it may call, under which limits. */
export interface Principal {
  /** The API key's public id; undefined without the gateway (the sender is its address). */
  readonly id: string | undefined;
  /** The limits its requests run under (`RequestContext.limits`). */
  readonly requestLimits: RequestLimits;
  /** Why it may not call `method` (the -32601 reason), undefined when it may. */
  refusal(method: string): string | undefined;
  /** The WebSocket connections open under it (none counted without the gateway). */
  openConnections(): Iterable<PrincipalConnection>;
}
