/**
 * Typed errors of the chain package: `BlockError` for a block whose body or execution breaks a
 * rule (header rules throw the consensus package's `HeaderError`), `ChainError` for the database
 * and lookups.
 */
import {bytesToPrefixedHex, NodeError} from "@xchain/utils";

/** The body or execution rule a block breaks; values are prefixed `BLOCK_`. */
export enum BlockErrorCode {
  /** txTrieRoot differs from the root of the block's transactions (docs/protocol/fees.md §1). */
  TRANSACTIONS_ROOT_MISMATCH = "BLOCK_TRANSACTIONS_ROOT_MISMATCH",
  /** The last transaction is not the REMASC transaction (or there is none, docs/protocol/header.md §6). */
  REMASC_MISSING = "BLOCK_REMASC_MISSING",
  /** A REMASC transaction before the last position. */
  REMASC_NOT_LAST = "BLOCK_REMASC_NOT_LAST",
  /** A signed transaction for another chain id. */
  TRANSACTION_WRONG_CHAIN_ID = "BLOCK_TRANSACTION_WRONG_CHAIN_ID",
  /** A transaction's gasPrice below the block's minimumGasPrice (docs/protocol/fees.md §1). */
  GAS_PRICE_BELOW_MINIMUM = "BLOCK_GAS_PRICE_BELOW_MINIMUM",
  /** A transaction's gasPrice above 100 × minimumGasPrice (RSKIP-252). */
  GAS_PRICE_ABOVE_CAP = "BLOCK_GAS_PRICE_ABOVE_CAP",
  /** stateRoot differs from the state after execution. */
  STATE_ROOT_MISMATCH = "BLOCK_STATE_ROOT_MISMATCH",
  /** receiptTrieRoot differs from the root of the receipts execution produced. */
  RECEIPTS_ROOT_MISMATCH = "BLOCK_RECEIPTS_ROOT_MISMATCH",
  /** logsBloom differs from the bloom of the logs execution produced. */
  LOGS_BLOOM_MISMATCH = "BLOCK_LOGS_BLOOM_MISMATCH",
  /** gasUsed differs from the gas execution used. */
  GAS_USED_MISMATCH = "BLOCK_GAS_USED_MISMATCH",
  /** paidFees differs from the fees execution charged (docs/protocol/fees.md §1). */
  PAID_FEES_MISMATCH = "BLOCK_PAID_FEES_MISMATCH",
}

/** Each code with its metadata. */
export type BlockErrorType =
  | {code: BlockErrorCode.TRANSACTIONS_ROOT_MISMATCH; expected: Uint8Array; actual: Uint8Array}
  | {code: BlockErrorCode.REMASC_MISSING}
  | {code: BlockErrorCode.REMASC_NOT_LAST; index: number}
  | {code: BlockErrorCode.TRANSACTION_WRONG_CHAIN_ID; index: number; expected: number; actual: number}
  | {code: BlockErrorCode.GAS_PRICE_BELOW_MINIMUM; index: number; gasPrice: bigint; minimumGasPrice: bigint}
  | {code: BlockErrorCode.GAS_PRICE_ABOVE_CAP; index: number; gasPrice: bigint; cap: bigint}
  | {code: BlockErrorCode.STATE_ROOT_MISMATCH; expected: Uint8Array; actual: Uint8Array}
  | {code: BlockErrorCode.RECEIPTS_ROOT_MISMATCH; expected: Uint8Array; actual: Uint8Array}
  | {code: BlockErrorCode.LOGS_BLOOM_MISMATCH; expected: Uint8Array; actual: Uint8Array}
  | {code: BlockErrorCode.GAS_USED_MISMATCH; expected: bigint; actual: bigint}
  | {code: BlockErrorCode.PAID_FEES_MISMATCH; expected: bigint; actual: bigint};

/**
 * A block whose body or execution breaks a rule; `expected` is what execution or the body computes, `actual`
 * the header's.
 */
export class BlockError extends NodeError<BlockErrorType> {
  constructor(type: BlockErrorType) {
    super(type, describeBlockError(type));
  }
}

function hex(bytes: Uint8Array): string {
  return bytesToPrefixedHex(bytes);
}

function describeBlockError(t: BlockErrorType): string {
  switch (t.code) {
    case BlockErrorCode.REMASC_MISSING:
      return "the last transaction is not the REMASC transaction";
    case BlockErrorCode.REMASC_NOT_LAST:
      return `REMASC transaction at index ${t.index}, before the last position`;
    case BlockErrorCode.TRANSACTION_WRONG_CHAIN_ID:
      return `transaction ${t.index} is signed for chain id ${t.actual}, not ${t.expected}`;
    case BlockErrorCode.GAS_PRICE_BELOW_MINIMUM:
      return `transaction ${t.index} gasPrice ${t.gasPrice} below the block's minimumGasPrice ${t.minimumGasPrice}`;
    case BlockErrorCode.GAS_PRICE_ABOVE_CAP:
      return `transaction ${t.index} gasPrice ${t.gasPrice} above the cap ${t.cap}`;
    case BlockErrorCode.GAS_USED_MISMATCH:
    case BlockErrorCode.PAID_FEES_MISMATCH:
      return `${t.code}: header ${t.actual}, execution ${t.expected}`;
    default:
      return `${t.code}: header ${hex(t.actual)}, computed ${hex(t.expected)}`;
  }
}

/** Failures of the chain database and of lookups. */
export enum ChainErrorCode {
  /** The database holds another network's chain: its genesis hash differs from this node's. */
  GENESIS_MISMATCH = "CHAIN_GENESIS_MISMATCH",
  /** The database holds a chain of the same genesis but another chain id (a custom network's). */
  CHAIN_ID_MISMATCH = "CHAIN_CHAIN_ID_MISMATCH",
  /**
   * The database holds a fork of another block or chain than the one asked for, or a fork where a
   * network's genesis was asked for (or the reverse); also a state base that is not the fork block's.
   */
  FORK_MISMATCH = "CHAIN_FORK_MISMATCH",
  /** The database was written by an incompatible version of the storage layout. */
  SCHEMA_VERSION_MISMATCH = "CHAIN_SCHEMA_VERSION_MISMATCH",
  /** The database has a genesis but its head pointer or head block is missing. */
  HEAD_MISSING = "CHAIN_HEAD_MISSING",
  /** No stored block has this hash. */
  UNKNOWN_BLOCK = "CHAIN_UNKNOWN_BLOCK",
  /** A stored block lacks its parent, body, receipts or total difficulty: the database was damaged outside the node. */
  MISSING_DATA = "CHAIN_MISSING_DATA",
  /** The worker thread recovering transaction senders ahead of import stopped (`SenderRecovery`). */
  SENDER_RECOVERY_FAILED = "CHAIN_SENDER_RECOVERY_FAILED",
}

/** Each code with its metadata (hashes as 0x hex). */
export type ChainErrorType =
  | {code: ChainErrorCode.GENESIS_MISMATCH; expected: string; stored: string}
  | {code: ChainErrorCode.CHAIN_ID_MISMATCH; expected: number; stored: number | undefined}
  | {code: ChainErrorCode.FORK_MISMATCH; expected: string; stored: string}
  | {code: ChainErrorCode.SCHEMA_VERSION_MISMATCH; expected: number; stored: number}
  | {code: ChainErrorCode.HEAD_MISSING}
  | {code: ChainErrorCode.UNKNOWN_BLOCK; hash: string}
  | {
      code: ChainErrorCode.MISSING_DATA;
      /** The block's hash, or `#<number>` when the canonical index lost the height itself. */
      hash: string;
      missing: "parent" | "header" | "body" | "receipts" | "totalDifficulty" | "canonical entry";
    }
  | {code: ChainErrorCode.SENDER_RECOVERY_FAILED; reason: string};

/** A failure of the chain database or a lookup. */
export class ChainError extends NodeError<ChainErrorType> {}
