/**
 * JSON-RPC wire errors: the codes of docs/rpc.md §7 and, where it is silent, rskj's
 * (docs/protocol/errors.md). Handlers throw `RpcError` (or a typed error of another package, which `dispatch` maps
 * once); nothing else builds an error response.
 */

/** Wire error codes. */
export enum RpcErrorCode {
  /** The body is not JSON (docs/protocol/errors.md). */
  PARSE_ERROR = -32700,
  /**
   * Not a request object, a bad batch, a nesting too deep, a block reference that does not exist
   * (docs/protocol/errors.md).
   */
  INVALID_REQUEST = -32600,
  /** Unknown, disabled or unsupported method (docs/protocol/errors.md). */
  METHOD_NOT_FOUND = -32601,
  /** Wrong parameter count or value; the message names the argument (docs/protocol/errors.md). */
  INVALID_PARAMS = -32602,
  /** A fault of the node itself. */
  INTERNAL_ERROR = -32603,
  /** A missing or unknown API key when the gateway is on (HTTP 401, docs/gateway.md). */
  UNAUTHORIZED = -32001,
  /** A request the node understood but cannot serve: insufficient funds (docs/rpc.md §7), unknown filter or account. */
  SERVER_ERROR = -32000,
  /** Over a configured limit (EIP-1474 "limit exceeded"): eth_getLogs, filters, subscriptions (docs/rpc.md §8). */
  LIMIT_EXCEEDED = -32005,
  /** The txpool refused a transaction (docs/protocol/errors.md). */
  TRANSACTION_REJECTED = -32010,
  /** The request timed out or its response is too large (docs/protocol/errors.md). */
  TIMEOUT = -32011,
  /** Execution reverted, rskj's form (docs/rpc.md §7, `rpc.revertErrors = "rskj"`). */
  REVERTED = -32015,
  /** Execution reverted, geth's form (docs/rpc.md §7, `rpc.revertErrors = "geth"`): what viem and web3.py decode. */
  EXECUTION_REVERTED = 3,
  /** A mining submission failed (docs/protocol/mining-rpc.md §3). */
  MINING_ERROR = -33000,
}

/** The `error` member of a response. */
export interface RpcErrorObject {
  code: number;
  message: string;
  data?: string;
}

/** rskj's prefix for a reverted execution (docs/rpc.md §7). */
const REVERT_PREFIX = "VM Exception while processing transaction:";

/** An error response: code, message and optional DATA. */
export class RpcError extends Error {
  constructor(
    readonly code: RpcErrorCode,
    message: string,
    readonly data?: string,
  ) {
    super(message);
    this.name = "RpcError";
  }

  /** -32700 (docs/protocol/errors.md). */
  static parseError(): RpcError {
    return new RpcError(RpcErrorCode.PARSE_ERROR, "JSON parse error");
  }

  /** -32600 with rskj's message unless a more precise one is given. */
  static invalidRequest(message = "invalid request"): RpcError {
    return new RpcError(RpcErrorCode.INVALID_REQUEST, message);
  }

  /** -32601 for a name the node does not know (docs/protocol/errors.md), naming it (docs/rpc.md §7). */
  static methodNotFound(method: string): RpcError {
    return new RpcError(RpcErrorCode.METHOD_NOT_FOUND, `method not found: ${method}`);
  }

  /** -32601 for a known method that is disabled or unsupported, with rskj's wording and the reason. */
  static methodNotAvailable(method: string, reason: string): RpcError {
    return new RpcError(
      RpcErrorCode.METHOD_NOT_FOUND,
      `the method ${method} does not exist/is not available: ${reason}`,
    );
  }

  /** -32602. */
  static invalidParams(message: string): RpcError {
    return new RpcError(RpcErrorCode.INVALID_PARAMS, message);
  }

  /** -32603 (docs/protocol/errors.md); the cause is logged, never sent. */
  static internal(): RpcError {
    return new RpcError(RpcErrorCode.INTERNAL_ERROR, "Internal server error");
  }

  /** -32001 `unauthorized: <why>` (docs/gateway.md). */
  static unauthorized(why: string): RpcError {
    return new RpcError(RpcErrorCode.UNAUTHORIZED, `unauthorized: ${why}`);
  }

  /** -32000. */
  static server(message: string): RpcError {
    return new RpcError(RpcErrorCode.SERVER_ERROR, message);
  }

  /** -32005 `limit exceeded: <limit>`, naming the cap that was hit (docs/rpc.md §8). */
  static limitExceeded(limit: string): RpcError {
    return new RpcError(RpcErrorCode.LIMIT_EXCEEDED, `limit exceeded: ${limit}`);
  }

  /**
   * -32015: `VM Exception while processing transaction: revert <reason>` with the payload (docs/rpc.md §7,
   * docs/protocol/errors.md).
   */
  static reverted(reason: string | undefined, data: string | undefined): RpcError {
    const message =
      reason === undefined ? `${REVERT_PREFIX} transaction reverted` : `${REVERT_PREFIX} revert ${reason}`;
    return new RpcError(RpcErrorCode.REVERTED, message, data);
  }

  /**
   * 3: `execution reverted: <reason>` (`execution reverted` without one) with the payload, as geth answers
   * (docs/rpc.md §7).
   */
  static executionReverted(reason: string | undefined, data: string): RpcError {
    const message = reason === undefined ? "execution reverted" : `execution reverted: ${reason}`;
    return new RpcError(RpcErrorCode.EXECUTION_REVERTED, message, data);
  }

  /** -32011 (docs/protocol/errors.md). */
  static timeout(): RpcError {
    return new RpcError(RpcErrorCode.TIMEOUT, "Execution has got timeout out.");
  }

  /** -32011 for a response over the size cap (docs/protocol/errors.md). */
  static responseTooLarge(maxBytes: number): RpcError {
    return new RpcError(RpcErrorCode.TIMEOUT, `Response too large: more than ${maxBytes} bytes`);
  }

  /** The `error` member of the response. */
  toObject(): RpcErrorObject {
    return this.data === undefined
      ? {code: this.code, message: this.message}
      : {code: this.code, message: this.message, data: this.data};
  }
}

/**
 * Thrown by a handler that cannot serve on this node (no miner, an unsupported method); `dispatch` turns it
 * into -32601 with the method's name, as rskj does for UnsupportedOperationException
 * (docs/protocol/errors.md).
 */
export class MethodUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "MethodUnavailableError";
  }
}
