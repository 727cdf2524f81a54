/**
 * A full serialized Bitcoin block: 80-byte header, CompactSize transaction count, transactions
 * (docs/protocol/mining-rpc.md §3).
 */
import {concatBytes} from "@xchain/utils";
import {BTC_HEADER_SIZE} from "../constants.ts";
import {ByteReader, varIntBytes} from "./codec.ts";
import {type BitcoinHeader, parseBitcoinHeader} from "./header.ts";
import {type ParsedBitcoinTransaction, readBitcoinTransaction} from "./transaction.ts";

/** A decoded Bitcoin block; `headerBytes` and every transaction's bytes are views into the input. */
export interface BitcoinBlock {
  header: BitcoinHeader;
  headerBytes: Uint8Array;
  /** The coinbase first. */
  transactions: ParsedBitcoinTransaction[];
}

// Version, input count, output count, lock time: the smallest a transaction can be.
const MIN_TRANSACTION_SIZE = 10;

/** Decodes a full block; throws BitcoinDecodeError on malformed bytes, including bytes after the last transaction. */
export function parseBitcoinBlock(bytes: Uint8Array): BitcoinBlock {
  const r = new ByteReader(bytes, "Bitcoin block");
  const headerBytes = r.bytesView(BTC_HEADER_SIZE);
  const count = r.count(MIN_TRANSACTION_SIZE, "transaction");
  const transactions: ParsedBitcoinTransaction[] = [];
  for (let i = 0; i < count; i++) transactions.push(readBitcoinTransaction(r));
  r.end();
  return {header: parseBitcoinHeader(headerBytes), headerBytes, transactions};
}

/** Serializes a block from its 80 header bytes and its transactions' serializations, coinbase first. */
export function serializeBitcoinBlock(header80: Uint8Array, transactions: readonly Uint8Array[]): Uint8Array {
  return concatBytes(header80, varIntBytes(transactions.length), ...transactions);
}
