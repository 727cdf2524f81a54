/**
 * Typed errors of the packages RPC calls, mapped to wire errors (design "RPC"): every txpool refusal is
 * -32010 with its reason, a mining failure -33000 (docs/protocol/mining-rpc.md §3, docs/protocol/errors.md)
 * except a refused development control (a bad argument, or evm_* where not allowed), which is -32602; a chain
 * lookup of a block that is not stored -32600 (docs/protocol/errors.md); a transaction built from the request
 * that the legacy encoding refuses -32602 (docs/rpc.md §7); a simulated message the execution refuses before
 * running it -32000, as any execution that fails other than by revert (docs/rpc.md §7); a ban target the peer
 * scoring refuses -32602 (rskj's `invalid banned address`); a call stopped by its timeout or its client
 * leaving -32011; a keystore whose key derivations are all taken -32005 (docs/protocol/keystore.md §5).
 * A database that cannot serve the request, damaged (a failed checksum, a missing state entry) or on
 * a full disk, is -32000 naming the damage and the operator's recovery (docs/operations.md §6); the
 * store logs the first damage, and a missing state entry is logged here once. Anything else (a
 * closed database, stored data that does not decode) is a fault of the node: logged, and answered
 * -32603 without details.
 */
import {ChainError, ChainErrorCode} from "@xchain/chain";
import {DatabaseError, DatabaseErrorCode} from "@xchain/db";
import {ExecutionInterruptedError, TransactionInvalidError} from "@xchain/execution";
import {MinerErrorCode} from "@xchain/miner";
import {P2PError, P2PErrorCode} from "@xchain/p2p";
import {TransactionDecodeError} from "@xchain/primitives";
import {StateError, StateErrorCode} from "@xchain/state";
import {TxPoolErrorCode} from "@xchain/txpool";
import {type Logger, NodeError} from "@xchain/utils";
import {RpcError, RpcErrorCode} from "./jsonrpc/errors.ts";
import {KeystoreBusyError} from "./keystoreBusy.ts";

const REPAIR = "; its operator must repair it (xchain db verify, xchain db repair)";

const TXPOOL_CODES: ReadonlySet<string> = new Set(Object.values(TxPoolErrorCode));
const MINER_CODES: ReadonlySet<string> = new Set(Object.values(MinerErrorCode));

/** The mapper `dispatch` uses for errors that are not already wire errors. */
export function createErrorMapper(logger: Logger): (error: unknown, method: string) => RpcError {
  let missingLogged = false;
  return (error, method) => {
    if (error instanceof NodeError) {
      if (error instanceof DatabaseError && error.code !== DatabaseErrorCode.FAILED) {
        return RpcError.server(`${error.message}${error.code === DatabaseErrorCode.CORRUPTED ? REPAIR : ""}`);
      }
      const missing =
        (error instanceof StateError && error.code === StateErrorCode.NODE_MISSING) ||
        (error instanceof ChainError &&
          (error.code === ChainErrorCode.MISSING_DATA || error.code === ChainErrorCode.HEAD_MISSING));
      if (missing) {
        if (!missingLogged) logger.error({err: error, method}, `the database is damaged: ${error.message}${REPAIR}`);
        missingLogged = true;
        return RpcError.server(`the node's database is damaged: ${error.message}${REPAIR}`);
      }
      if (TXPOOL_CODES.has(error.code)) return new RpcError(RpcErrorCode.TRANSACTION_REJECTED, error.message);
      if (error.code === MinerErrorCode.NOT_ALLOWED) return RpcError.invalidParams(error.message);
      if (MINER_CODES.has(error.code)) return new RpcError(RpcErrorCode.MINING_ERROR, error.message);
      if (error instanceof TransactionDecodeError) return RpcError.invalidParams(error.message);
      if (error instanceof ExecutionInterruptedError) return RpcError.timeout();
      if (error instanceof KeystoreBusyError) return new RpcError(RpcErrorCode.LIMIT_EXCEEDED, error.message);
      if (error instanceof TransactionInvalidError) return RpcError.server(error.message);
      if (error instanceof P2PError && error.code === P2PErrorCode.INVALID_BAN_ADDRESS) {
        return RpcError.invalidParams(error.message);
      }
      if (error instanceof ChainError && error.code === ChainErrorCode.UNKNOWN_BLOCK) {
        return RpcError.invalidRequest(error.message);
      }
    }
    logger.error({method, error}, "rpc method failed");
    return RpcError.internal();
  };
}
