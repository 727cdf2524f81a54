/**
 * The transaction object (docs/rpc.md §2.4, rskj `TransactionResultDTO`): legacy only, so `type` is
 * `0x0`; v, r and s are quantities. The REMASC transaction shows sender zero and v, r, s `0x0`
 * (testnet block 3 of the vectors).
 */
import type {Transaction} from "@xchain/primitives";
import {toData, toQuantity} from "@xchain/utils";

/** Where an included transaction sits. */
export interface IncludedAt {
  blockHash: Uint8Array;
  blockNumber: number;
  index: number;
}

/** The JSON transaction object. */
export interface TransactionJson {
  hash: string;
  nonce: string;
  blockHash: string | null;
  blockNumber: string | null;
  transactionIndex: string | null;
  from: string;
  to: string | null;
  gas: string;
  gasPrice: string;
  value: string;
  input: string;
  v: string;
  r: string;
  s: string;
  type: string;
}

/** `0x` and 64 zeros: the block hash of a pending transaction in eth_pendingTransactions (docs/rpc.md §2.4). */
export const ZERO_HASH = toData(new Uint8Array(32));

/**
 * Formats a transaction. Pending (no `at`) has null block fields, except that eth_pendingTransactions
 * and txpool_content show `pendingBlockHash` = ZERO_HASH (docs/rpc.md §2.4, docs/protocol/json-rpc.md §4).
 */
export function formatTransaction(
  tx: Transaction,
  at?: IncludedAt,
  pendingBlockHash: string | null = null,
): TransactionJson {
  return {
    hash: toData(tx.hash()),
    nonce: toQuantity(tx.nonce),
    blockHash: at ? toData(at.blockHash) : pendingBlockHash,
    blockNumber: at ? toQuantity(at.blockNumber) : null,
    transactionIndex: at ? toQuantity(at.index) : null,
    from: toData(tx.sender()),
    to: tx.to ? toData(tx.to) : null,
    gas: toQuantity(tx.gasLimit),
    gasPrice: toQuantity(tx.gasPrice),
    value: toQuantity(tx.value),
    input: toData(tx.data),
    v: toQuantity(tx.v ?? 0),
    r: toQuantity(tx.r),
    s: toQuantity(tx.s),
    type: "0x0",
  };
}
