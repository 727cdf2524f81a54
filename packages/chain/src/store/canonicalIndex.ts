/**
 * The canonical chain's indexes: `canonicalHash` (number → hash), `canonicalBloom` (number → the
 * block's logs bloom, scanned by range for log queries) and `txLocation` (transaction hash → RLP
 * [block hash, index] of its canonical inclusion).
 */
import {Bucket, type KeyValueStore, numberFromKey, numberKey, type WriteBatch} from "@xchain/db";
import {asBytes, type Block, decodeRlpList, decodeSafeInteger, encodeRlp, encodeUnsigned} from "@xchain/primitives";

/** Where the canonical chain holds a transaction, without the block number. */
export interface StoredTransactionLocation {
  blockHash: Uint8Array;
  index: number;
}

/** The repository of the canonical indexes. */
export class CanonicalIndex {
  constructor(private readonly store: KeyValueStore) {}

  /** Adds the writes that make `block` the canonical block of its height. */
  putBlock(batch: WriteBatch, block: Block): void {
    const hash = block.hash();
    const key = numberKey(block.header.number);
    batch.put(Bucket.canonicalHash, key, hash);
    batch.put(Bucket.canonicalBloom, key, block.header.logsBloom);
    block.transactions.forEach((tx, index) => {
      batch.put(Bucket.txLocation, tx.hash(), encodeRlp([hash, encodeUnsigned(BigInt(index))]));
    });
  }

  /** Adds the writes that remove the canonical entries of a height (the chain got shorter). */
  deleteHeight(batch: WriteBatch, blockNumber: number): void {
    batch.del(Bucket.canonicalHash, numberKey(blockNumber));
    batch.del(Bucket.canonicalBloom, numberKey(blockNumber));
  }

  /** Adds the write that removes a transaction's location (its block left the canonical chain). */
  deleteTransaction(batch: WriteBatch, txHash: Uint8Array): void {
    batch.del(Bucket.txLocation, txHash);
  }

  hashAt(blockNumber: number): Promise<Uint8Array | undefined> {
    return this.store.get(Bucket.canonicalHash, numberKey(blockNumber));
  }

  async transactionLocation(txHash: Uint8Array): Promise<StoredTransactionLocation | undefined> {
    const bytes = await this.store.get(Bucket.txLocation, txHash);
    if (!bytes) return undefined;
    const [blockHash, index] = decodeRlpList(bytes, "txLocation");
    return {blockHash: asBytes(blockHash, "blockHash"), index: decodeSafeInteger(asBytes(index, "index"), "index")};
  }

  /** Canonical hashes of heights `from` to `to` inclusive, in order, as [number, hash]. */
  async *hashes(from: number, to: number): AsyncIterable<[number, Uint8Array]> {
    for await (const [key, hash] of this.store.entries(Bucket.canonicalHash, range(from, to))) {
      yield [numberFromKey(key), hash];
    }
  }

  /** Logs blooms of the canonical blocks `from` to `to` inclusive, in order, as [number, bloom]. */
  async *blooms(from: number, to: number): AsyncIterable<[number, Uint8Array]> {
    for await (const [key, bloom] of this.store.entries(Bucket.canonicalBloom, range(from, to))) {
      yield [numberFromKey(key), bloom];
    }
  }
}

function range(from: number, to: number): {gte: Uint8Array; lt: Uint8Array} {
  return {gte: numberKey(from), lt: numberKey(to + 1)};
}
