/**
 * A block body `[header, [transaction…], [uncle…]]` (docs/protocol/header.md §6), header and uncles in their full
 * encoding. Transactions keep the elements they were received with, so a decoded block
 * re-encodes byte for byte; the last one may be the unsigned REMASC transaction.
 */
import type {NodeError} from "@xchain/utils";
import {HeaderDecodeError} from "../header/errors.ts";
import {BlockHeader, type HeaderEncodingRules} from "../header/header.ts";
import {decodeRlpList, encodeRlp, RlpError, type RlpItem} from "../rlp/rlp.ts";
import {TransactionDecodeError} from "../transaction/errors.ts";
import {closingRemascTransaction} from "../transaction/remasc.ts";
import {Transaction} from "../transaction/transaction.ts";
import {BlockDecodeError, BlockDecodeErrorCode, type BlockDecodeErrorType} from "./errors.ts";
import {fullHeaderItem} from "./uncles.ts";

/** The network context a block is decoded in. */
export interface BlockDecodeOptions {
  rules: HeaderEncodingRules;
  /** The node's chain id, which signed transactions must carry (or none, docs/protocol/transactions.md). */
  chainId: number;
}

/** A block: header, transactions and uncle headers. */
export class Block {
  readonly header: BlockHeader;
  readonly transactions: readonly Transaction[];
  readonly uncles: readonly BlockHeader[];

  /** Assembles a block from decoded or freshly built parts (no consensus check). */
  constructor(header: BlockHeader, transactions: readonly Transaction[], uncles: readonly BlockHeader[]) {
    this.header = header;
    this.transactions = transactions;
    this.uncles = uncles;
  }

  /** Decodes a block body; only the last transaction may be the unsigned REMASC transaction. */
  static decode(bytes: Uint8Array, options: BlockDecodeOptions): Block {
    let items: RlpItem[];
    try {
      items = decodeRlpList(bytes, "block");
    } catch (e) {
      if (e instanceof RlpError) {
        throw new BlockDecodeError({code: BlockDecodeErrorCode.BAD_RLP, reason: e.code}, `block: ${e.message}`);
      }
      throw e;
    }
    if (items.length !== 3) {
      throw new BlockDecodeError(
        {code: BlockDecodeErrorCode.WRONG_ITEM_COUNT, count: items.length},
        `block has ${items.length} items, expected 3`,
      );
    }
    const [headerItem, txItems, uncleItems] = items as [RlpItem, RlpItem, RlpItem];
    const header = wrap(
      HeaderDecodeError,
      (reason) => ({code: BlockDecodeErrorCode.BAD_HEADER, reason}),
      () => BlockHeader.fromRlpItems(list(headerItem, "header"), options.rules),
    );
    const txList = list(txItems, "transactions");
    const transactions = txList.map((item, i) =>
      wrap(
        TransactionDecodeError,
        (reason) => ({code: BlockDecodeErrorCode.BAD_TRANSACTION, index: i, reason}),
        () =>
          Transaction.fromRlpItem(item, {
            chainId: options.chainId,
            allowRemasc: i === txList.length - 1,
          }),
      ),
    );
    const uncles = list(uncleItems, "uncles").map((item, i) =>
      wrap(
        HeaderDecodeError,
        (reason) => ({code: BlockDecodeErrorCode.BAD_UNCLE, index: i, reason}),
        () => BlockHeader.fromRlpItems(list(item, `uncle ${i}`), options.rules),
      ),
    );
    return new Block(header, transactions, uncles);
  }

  /** The block body encoding: full header, transactions as received, full uncle headers. */
  encode(): Uint8Array {
    return encodeRlp([
      fullHeaderItem(this.header),
      this.transactions.map((tx) => [...tx.receivedFields]),
      this.uncles.map(fullHeaderItem),
    ]);
  }

  /** The block hash (the header's). */
  hash(): Uint8Array {
    return this.header.hash();
  }

  /** The closing REMASC transaction, when the last transaction is one. */
  get remascTransaction(): Transaction | undefined {
    return closingRemascTransaction(this.transactions);
  }
}

function list(item: RlpItem, what: string): RlpItem[] {
  if (Array.isArray(item)) return item;
  throw new BlockDecodeError({code: BlockDecodeErrorCode.NOT_A_LIST, item: what}, `block: ${what} must be a list`);
}

/** Runs a part's decoder, turning its typed error into a BlockDecodeError that says which part failed. */
function wrap<T>(
  errorClass: abstract new (...args: never[]) => NodeError<{code: string}>,
  describe: (reason: string) => BlockDecodeErrorType,
  decode: () => T,
): T {
  try {
    return decode();
  } catch (e) {
    if (!(e instanceof errorClass)) throw e;
    throw new BlockDecodeError(describe(e.code), `block: ${e.message}`);
  }
}
