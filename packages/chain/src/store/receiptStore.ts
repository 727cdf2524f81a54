/** Receipts by block (`receipts`: block hash → RLP list of the receipts' encodings, in transaction order). */
import {Bucket, type KeyValueStore, type WriteBatch} from "@xchain/db";
import {asBytes, asList, decodeRlp, encodeRlp, Receipt} from "@xchain/primitives";

/** The repository of receipts. */
export class ReceiptStore {
  constructor(private readonly store: KeyValueStore) {}

  /** Adds the write that stores a block's receipts to `batch`. */
  put(batch: WriteBatch, blockHash: Uint8Array, receipts: readonly Receipt[]): void {
    batch.put(Bucket.receipts, blockHash, encodeRlp(receipts.map((r) => r.encode())));
  }

  async get(blockHash: Uint8Array): Promise<Receipt[] | undefined> {
    const bytes = await this.store.get(Bucket.receipts, blockHash);
    if (!bytes) return undefined;
    return asList(decodeRlp(bytes), "receipts").map((item) => Receipt.decode(asBytes(item, "receipt")));
  }
}
