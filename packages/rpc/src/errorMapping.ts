/**
 * Typed errors of the packages RPC calls, mapped to wire errors in one table (design "RPC"): every
 * code of every `NodeError` enum that can reach a handler (those of the packages rpc depends on,
 * and rpc's own contracts: keystore, gateway, TLS) has its row, so a new code is a compile error
 * here rather than a silent -32603. The rows: every txpool refusal is -32010 with its reason, a
 * mining failure -33000 (docs/protocol/mining-rpc.md §3, docs/protocol/errors.md) except a refused
 * development control (a bad argument, or evm_* where not allowed), which is -32602; a chain lookup
 * of a block that is not stored -32600 (docs/protocol/errors.md); a transaction built from the
 * request that the legacy encoding refuses -32602 (docs/rpc.md §7); a simulated message the
 * execution refuses before running it -32000, as any execution that fails other than by revert
 * (docs/rpc.md §7), and so is a message that reaches a native contract a fork cannot execute
 * (docs/forking.md §6); a ban target the peer scoring refuses -32602 (rskj's `invalid banned address`);
 * a call stopped by its timeout or its client leaving -32011; a keystore whose key derivations are
 * all taken -32005 (docs/protocol/keystore.md §5), any other keystore refusal (a wrong passphrase,
 * a corrupt keyfile, a locked account) -32000 with its reason; a fork's upstream read that failed -32000
 * naming the upstream and the key. A database that cannot serve the
 * request, damaged (a failed checksum, a missing state entry) or on a full disk, is -32000 naming
 * the damage and the operator's recovery (docs/operations.md §6); the store logs the first damage,
 * and a missing state entry is logged here once. A fork's upstream that fails a read is -32000 naming
 * the upstream and the key; its error answer to a forwarded request is relayed with its own code,
 * message and data (docs/forking.md §5). Anything else (a closed database, stored data that
 * does not decode, an error without a code) is a fault of the node: logged whole under `err`
 * (message and stack, docs/reliability.md §6), and answered -32603 without details.
 *
 * The enums are imported as types only: the table's keys are their string values, so importing
 * rpc loads none of those packages for it (p2p's libp2p above all, docs/architecture.md).
 */
import type {BlockErrorCode, ChainErrorCode} from "@xchain/chain";
import type {GenesisErrorCode} from "@xchain/chainspec";
import type {DatabaseErrorCode} from "@xchain/db";
import type {
  BlockExecutionErrorCode,
  BridgeStorageErrorCode,
  CallWorkerErrorCode,
  ExecutionInterruptedCode,
  NativeContractErrorCode,
  TransactionInvalidCode,
} from "@xchain/execution";
import type {BitcoinDecodeErrorCode, MergedMiningErrorCode} from "@xchain/merged-mining";
import type {MinerErrorCode} from "@xchain/miner";
import type {P2PErrorCode} from "@xchain/p2p";
import type {
  BlockDecodeErrorCode,
  HeaderDecodeErrorCode,
  NumberErrorCode,
  ReceiptDecodeErrorCode,
  RlpErrorCode,
  TransactionDecodeErrorCode,
  TransactionSignatureErrorCode,
} from "@xchain/primitives";
import type {ForkError, ForkErrorCode, ForkErrorType, NativeStorageErrorCode, StateErrorCode} from "@xchain/state";
import type {TxPoolErrorCode} from "@xchain/txpool";
import {type HexErrorCode, type Logger, NodeError} from "@xchain/utils";
import type {DappDbErrorCode} from "./dappDb.ts";
import type {GatewayErrorCode} from "./gateway/keysFile.ts";
import {RpcError, RpcErrorCode} from "./jsonrpc/errors.ts";
import type {KeystoreBusyCode} from "./keystoreBusy.ts";
import type {KeyfileErrorCode, KeystoreErrorCode} from "./keystoreRefusals.ts";
import type {TlsConfigErrorCode} from "./transport/tls.ts";

/** Every code that can reach the mapper, as its string value. */
type MappedCode =
  | `${BlockErrorCode | ChainErrorCode | GenesisErrorCode | DatabaseErrorCode}`
  | `${BlockExecutionErrorCode | CallWorkerErrorCode | ExecutionInterruptedCode | TransactionInvalidCode}`
  | `${NativeContractErrorCode | BridgeStorageErrorCode}`
  | `${BitcoinDecodeErrorCode | MergedMiningErrorCode | MinerErrorCode | P2PErrorCode}`
  | `${BlockDecodeErrorCode | HeaderDecodeErrorCode | NumberErrorCode | ReceiptDecodeErrorCode | RlpErrorCode}`
  | `${TransactionDecodeErrorCode | TransactionSignatureErrorCode | StateErrorCode | TxPoolErrorCode | HexErrorCode}`
  | `${ForkErrorCode | NativeStorageErrorCode}`
  | `${KeystoreBusyCode | KeystoreErrorCode | KeyfileErrorCode | GatewayErrorCode | TlsConfigErrorCode}`
  | `${DappDbErrorCode}`;

/** What a code becomes on the wire. */
type Wire =
  /** -32603, logged: a fault of the node. */
  | "fault"
  /** -32000 naming the damage and the repair, logged once: the database lacks what it should hold. */
  | "damaged"
  /** -32000 with the message and the repair: the database failed a checksum. */
  | "corrupted"
  /** -32000 with the message: the request cannot be served (a database that cannot, an execution refused). */
  | "server"
  | "invalidParams"
  | "invalidRequest"
  /** -32010 with the message. */
  | "rejected"
  /** -33000 with the message. */
  | "mining"
  /** -32011. */
  | "timeout"
  /** -32005 with the message. */
  | "busy"
  /** The upstream's own error answer to a forwarded request: its code, message and data as sent. */
  | "relayed";

const WIRE: Record<MappedCode, Wire> = {
  // @xchain/chain
  CHAIN_GENESIS_MISMATCH: "fault",
  CHAIN_FORK_MISMATCH: "fault",
  CHAIN_CHAIN_ID_MISMATCH: "fault",
  CHAIN_SCHEMA_VERSION_MISMATCH: "fault",
  CHAIN_HEAD_MISSING: "damaged",
  CHAIN_UNKNOWN_BLOCK: "invalidRequest",
  CHAIN_MISSING_DATA: "damaged",
  CHAIN_SENDER_RECOVERY_FAILED: "fault",
  BLOCK_TRANSACTIONS_ROOT_MISMATCH: "fault",
  BLOCK_REMASC_MISSING: "fault",
  BLOCK_REMASC_NOT_LAST: "fault",
  BLOCK_TRANSACTION_WRONG_CHAIN_ID: "fault",
  BLOCK_GAS_PRICE_BELOW_MINIMUM: "fault",
  BLOCK_GAS_PRICE_ABOVE_CAP: "fault",
  BLOCK_STATE_ROOT_MISMATCH: "fault",
  BLOCK_RECEIPTS_ROOT_MISMATCH: "fault",
  BLOCK_LOGS_BLOOM_MISMATCH: "fault",
  BLOCK_GAS_USED_MISMATCH: "fault",
  BLOCK_PAID_FEES_MISMATCH: "fault",
  // @xchain/chainspec
  GENESIS_INVALID_JSON: "fault",
  GENESIS_UNKNOWN_KEY: "fault",
  GENESIS_MISSING_KEY: "fault",
  GENESIS_BAD_VALUE: "fault",
  GENESIS_UNSUPPORTED_KEY: "fault",
  GENESIS_DUPLICATE_ACCOUNT: "fault",
  // @xchain/db (docs/operations.md §6): a closed database is a fault of the node.
  DATABASE_LOCKED: "server",
  DATABASE_MISSING: "server",
  DATABASE_CORRUPTED: "corrupted",
  DATABASE_DISK_FULL: "server",
  DATABASE_FAILED: "fault",
  // @xchain/execution
  TX_INVALID_BAD_SIGNATURE: "server",
  TX_INVALID_GAS_PRICE_BELOW_MINIMUM: "server",
  TX_INVALID_GAS_PRICE_ABOVE_CAP: "server",
  TX_INVALID_INITCODE_TOO_LARGE: "server",
  TX_INVALID_INTRINSIC_GAS_TOO_LOW: "server",
  TX_INVALID_BLOCK_GAS_LIMIT_EXCEEDED: "server",
  TX_INVALID_NONCE_MISMATCH: "server",
  TX_INVALID_INSUFFICIENT_BALANCE: "server",
  TX_INVALID_UNEXPECTED_REMASC: "server",
  EXEC_INTERRUPTED_ABORTED: "timeout",
  // Fork mode: the message reached a native contract, which the node cannot execute (its name and address said).
  EXECUTION_NATIVE_CONTRACT_UNAVAILABLE: "server",
  // The Bridge's storage holds what rskj's formats cannot read (eth_bridgeState; -32603 as rskj, docs/rpc.md §4.7).
  STATE_NATIVE_STORAGE_VALUE_TOO_LONG: "fault",
  BRIDGE_STORAGE_UNDECODABLE: "fault",
  BLOCK_EXEC_INVALID_TRANSACTION: "fault",
  BLOCK_EXEC_MISSING_REMASC: "fault",
  BLOCK_EXEC_REMASC_UNDERFUNDED: "fault",
  BLOCK_EXEC_REMASC_ANCESTOR_MISSING: "fault",
  // A call lost with its worker (the pool replaces the worker).
  CALL_WORKER_EXITED: "fault",
  CALL_WORKER_NEEDS_MAIN_THREAD: "fault",
  // @xchain/merged-mining
  MM_MERKLE_PROOF_INVALID: "fault",
  MM_COINBASE_MISSING: "fault",
  MM_BTC_HEADER_INVALID: "fault",
  MM_POW_ABOVE_TARGET: "fault",
  MM_COINBASE_MIDSTATE_INVALID: "fault",
  MM_TAG_NOT_FOUND: "fault",
  MM_TAG_POSITION_TOO_LATE: "fault",
  MM_TAG_NOT_LAST: "fault",
  MM_TOO_MANY_BYTES_AFTER_TAG: "fault",
  MM_COINBASE_TOO_SHORT: "fault",
  MM_MERKLE_ROOT_MISMATCH: "fault",
  MM_FORK_DETECTION_DATA_NOT_FOUND: "fault",
  BTC_DECODE_TRUNCATED: "fault",
  BTC_DECODE_TRAILING_BYTES: "fault",
  BTC_DECODE_COUNT_TOO_LARGE: "fault",
  BTC_DECODE_UNKNOWN_TX_FLAGS: "fault",
  BTC_DECODE_INVALID_PARTIAL_MERKLE_TREE: "fault",
  // @xchain/miner: a refused development control is a bad argument.
  MINER_WORK_NOT_FOUND: "mining",
  MINER_BAD_BITCOIN_DATA: "mining",
  MINER_INVALID_BLOCK: "mining",
  MINER_RATE_LIMITED: "mining",
  MINER_NOT_ALLOWED: "invalidParams",
  MINER_NO_SOLUTION: "mining",
  MINER_NOT_SYNCED: "mining",
  MINER_MINING_DISABLED: "mining",
  // @xchain/p2p
  P2P_TIMEOUT: "fault",
  P2P_BAD_RESPONSE: "fault",
  P2P_INVALID_MESSAGE: "fault",
  P2P_HANDSHAKE_FAILED: "fault",
  P2P_INVALID_BAN_ADDRESS: "invalidParams",
  P2P_INVALID_IDENTITY: "fault",
  P2P_UNKNOWN_PEER: "fault",
  P2P_INVALID_REQUEST: "fault",
  P2P_REQUEST_FAILED: "fault",
  P2P_NOT_RUNNING: "fault",
  P2P_INVALID_PEER_ADDRESS: "invalidParams",
  P2P_TOO_MANY_ADDED_PEERS: "server",
  // @xchain/primitives: a transaction built from the request that the encoding refuses is a bad argument;
  // stored data that does not decode is a fault.
  TX_DECODE_BAD_RLP: "invalidParams",
  TX_DECODE_TYPED_TRANSACTION_UNSUPPORTED: "invalidParams",
  TX_DECODE_WRONG_FIELD_COUNT: "invalidParams",
  TX_DECODE_FIELD_IS_LIST: "invalidParams",
  TX_DECODE_BAD_TO: "invalidParams",
  TX_DECODE_NUMBER_OUT_OF_RANGE: "invalidParams",
  TX_DECODE_BAD_V: "invalidParams",
  TX_DECODE_FOREIGN_CHAIN_ID: "invalidParams",
  TX_DECODE_SIGNATURE_TOO_LONG: "invalidParams",
  TX_DECODE_SIGNATURE_OUT_OF_RANGE: "invalidParams",
  TX_DECODE_HIGH_S: "invalidParams",
  TX_DECODE_UNSIGNED: "invalidParams",
  TX_SIGNATURE_UNRECOVERABLE: "fault",
  RLP_EMPTY_INPUT: "fault",
  RLP_TRUNCATED: "fault",
  RLP_TRAILING_BYTES: "fault",
  RLP_NON_CANONICAL_SIZE: "fault",
  RLP_NON_CANONICAL_SINGLE_BYTE: "fault",
  RLP_TOO_DEEP: "fault",
  RLP_EXPECTED_LIST: "fault",
  RLP_EXPECTED_STRING: "fault",
  NUMBER_NEGATIVE: "fault",
  NUMBER_OUT_OF_RANGE: "fault",
  BLOCK_DECODE_BAD_RLP: "fault",
  BLOCK_DECODE_WRONG_ITEM_COUNT: "fault",
  BLOCK_DECODE_NOT_A_LIST: "fault",
  BLOCK_DECODE_BAD_HEADER: "fault",
  BLOCK_DECODE_BAD_TRANSACTION: "fault",
  BLOCK_DECODE_BAD_UNCLE: "fault",
  HEADER_DECODE_BAD_RLP: "fault",
  HEADER_DECODE_WRONG_FIELD_COUNT: "fault",
  HEADER_DECODE_BAD_FIELD_LENGTH: "fault",
  HEADER_DECODE_BAD_NUMBER: "fault",
  RECEIPT_DECODE_BAD_RLP: "fault",
  RECEIPT_DECODE_WRONG_FIELD_COUNT: "fault",
  RECEIPT_DECODE_BAD_STATUS: "fault",
  RECEIPT_DECODE_BAD_NUMBER: "fault",
  RECEIPT_DECODE_BAD_FIELD_LENGTH: "fault",
  RECEIPT_DECODE_BAD_LOG: "fault",
  // @xchain/state: a missing entry is damage of the database.
  STATE_ROOT_MISSING: "fault",
  STATE_NODE_MISSING: "damaged",
  STATE_CHECKPOINT_OPEN: "fault",
  STATE_READ_ONLY: "fault",
  STATE_BAD_LENGTH: "fault",
  STATE_DUPLICATE_GENESIS_ACCOUNT: "fault",
  STATE_DUMP_TOO_LARGE: "server",
  // A forked state proves nothing of its own (its root commits to local writes), and a root of an
  // earlier fork is not readable on this one: -32000 saying so.
  STATE_FORK_PROOF_UNAVAILABLE: "server",
  STATE_FORK_BASE_MISMATCH: "server",
  // A state older than a pruned node's window (docs/rpc.md §7): -32000 naming the oldest block served,
  // as geth answers "historical state not available".
  STATE_PRUNED: "server",
  // The fork's upstream (docs/forking.md §1.3, §5): a read it could not answer fails the request that needed
  // it, naming the upstream and the key; an error answer to a forwarded request is the upstream's own.
  FORK_UPSTREAM_UNREACHABLE: "server",
  FORK_UPSTREAM_HTTP_STATUS: "server",
  FORK_UPSTREAM_BAD_ANSWER: "server",
  FORK_UPSTREAM_ERROR_ANSWER: "server",
  FORK_UPSTREAM_METHOD_UNAVAILABLE: "server",
  FORK_BLOCK_NOT_FOUND: "server",
  FORK_UPSTREAM_MISMATCH: "server",
  FORK_BLOCK_ABOVE_FORK: "fault",
  FORK_PROOFS_UNAVAILABLE: "server",
  FORK_PROOF_INVALID: "server",
  FORK_OFFLINE_MISS: "server",
  FORK_FORWARDED_ERROR: "relayed",
  // @xchain/txpool: every refusal, with its reason.
  TXPOOL_TOO_LARGE: "rejected",
  TXPOOL_DECODE: "rejected",
  TXPOOL_WRONG_CHAIN_ID: "rejected",
  TXPOOL_INVALID_SIGNATURE: "rejected",
  TXPOOL_NONCE_TOO_LOW: "rejected",
  TXPOOL_NONCE_TOO_HIGH: "rejected",
  TXPOOL_INSUFFICIENT_FUNDS: "rejected",
  TXPOOL_GAS_PRICE_TOO_LOW: "rejected",
  TXPOOL_GAS_PRICE_ABOVE_CAP: "rejected",
  TXPOOL_INTRINSIC_GAS_TOO_LOW: "rejected",
  TXPOOL_GAS_LIMIT_ABOVE_BLOCK: "rejected",
  TXPOOL_INITCODE_TOO_LARGE: "rejected",
  TXPOOL_REMASC_NOT_ACCEPTED: "rejected",
  TXPOOL_ALREADY_KNOWN: "rejected",
  TXPOOL_REPLACEMENT_UNDERPRICED: "rejected",
  TXPOOL_POOL_FULL: "rejected",
  TXPOOL_SENDER_LIMIT: "rejected",
  TXPOOL_STORAGE_UNAVAILABLE: "rejected",
  TXPOOL_IMPERSONATION_DISABLED: "rejected",
  TXPOOL_NOT_IMPERSONATED: "rejected",
  TXPOOL_RESERVED_SENDER: "rejected",
  // @xchain/utils
  HEX_NOT_A_STRING: "fault",
  HEX_MISSING_PREFIX: "fault",
  HEX_EMPTY_QUANTITY: "fault",
  HEX_LEADING_ZERO: "fault",
  HEX_INVALID_CHARACTER: "fault",
  HEX_ODD_LENGTH: "fault",
  HEX_WRONG_LENGTH: "fault",
  HEX_TOO_LARGE: "fault",
  // rpc's contracts: the keystore (docs/protocol/keystore.md §5); the gateway and TLS, which refuse
  // at start-up and so never reach a method.
  KEYSTORE_BUSY: "busy",
  KEYSTORE_LOCKED: "server",
  KEYSTORE_DUMP_REFUSED: "server",
  KEYFILE_CORRUPT: "server",
  KEYFILE_WRONG_PASSPHRASE: "server",
  GATEWAY_KEYS_FILE_INVALID: "fault",
  GATEWAY_KEYS_FILE_UNSET: "fault",
  TLS_UNPAIRED: "fault",
  TLS_UNREADABLE: "fault",
  TLS_INVALID: "fault",
  // The db_* store (docs/rpc.md §4.7): a key or value over its bound is a bad argument, a full store a
  // limit (both naming the rpc.db key); a string read of bytes that are not text -32000 saying so.
  DAPP_DB_KEY_TOO_LARGE: "invalidParams",
  DAPP_DB_VALUE_TOO_LARGE: "invalidParams",
  DAPP_DB_FULL: "busy",
  DAPP_DB_NOT_TEXT: "server",
};

/** The table as a Map: a code is any string, and must not find `Object.prototype`'s members. */
const WIRE_BY_CODE: ReadonlyMap<string, Wire> = new Map(Object.entries(WIRE));

const REPAIR = "; its operator must repair it (xchain db verify, xchain db repair)";

/** The mapper `dispatch` uses for errors that are not already wire errors. */
export function createErrorMapper(logger: Logger): (error: unknown, method: string) => RpcError {
  let damageLogged = false;
  return (error, method) => {
    const wire = error instanceof NodeError ? WIRE_BY_CODE.get(error.code) : undefined;
    const message = (error as Error).message;
    switch (wire) {
      case "damaged":
        if (!damageLogged) logger.error({err: error, method}, `the database is damaged: ${message}${REPAIR}`);
        damageLogged = true;
        return RpcError.server(`the node's database is damaged: ${message}${REPAIR}`);
      case "corrupted":
        return RpcError.server(`${message}${REPAIR}`);
      case "server":
        return RpcError.server(message);
      case "invalidParams":
        return RpcError.invalidParams(message);
      case "invalidRequest":
        return RpcError.invalidRequest(message);
      case "rejected":
        return new RpcError(RpcErrorCode.TRANSACTION_REJECTED, message);
      case "mining":
        return new RpcError(RpcErrorCode.MINING_ERROR, message);
      case "timeout":
        return RpcError.timeout();
      case "busy":
        return new RpcError(RpcErrorCode.LIMIT_EXCEEDED, message);
      case "relayed": {
        const {rpcCode, rpcMessage, rpcData} = (error as ForkError).type as Extract<
          ForkErrorType,
          {code: ForkErrorCode.FORWARDED_ERROR}
        >;
        return new RpcError(rpcCode, rpcMessage, rpcData);
      }
      case "fault":
      case undefined:
        logger.error({err: error, method}, "rpc method failed");
        return RpcError.internal();
    }
  };
}
