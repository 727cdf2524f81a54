/**
 * Total difficulty by block (`totalDifficulty`: block hash → minimal big-endian), for fork choice
 * (docs/protocol/consensus.md §2).
 */
import {Bucket, type KeyValueStore, type WriteBatch} from "@xchain/db";
import {bigIntToBytes, bytesToBigInt} from "@xchain/utils";

/** The repository of total difficulties. */
export class TotalDifficultyStore {
  constructor(private readonly store: KeyValueStore) {}

  put(batch: WriteBatch, blockHash: Uint8Array, totalDifficulty: bigint): void {
    batch.put(Bucket.totalDifficulty, blockHash, bigIntToBytes(totalDifficulty));
  }

  async get(blockHash: Uint8Array): Promise<bigint | undefined> {
    const bytes = await this.store.get(Bucket.totalDifficulty, blockHash);
    return bytes && bytesToBigInt(bytes);
  }
}
