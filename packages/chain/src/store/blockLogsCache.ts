/**
 * The logs of recently queried blocks, decoded, by block hash: a block's logs never change, so
 * repeated log queries over the same blocks (dapps polling a range, indexers paging) skip the
 * reads of block and receipts and their decoding. Bounded by the number of logs held.
 */
import {bytesToHex} from "@xchain/utils";
import {LRUCache} from "lru-cache";
import type {LogWithContext} from "../types.ts";

export class BlockLogsCache {
  private readonly blocks: LRUCache<string, readonly LogWithContext[]>;

  /** `maxLogs`: logs held in all (`ChainOptions.logCacheSize`). */
  constructor(private readonly maxLogs: number) {
    this.blocks = new LRUCache({
      maxSize: maxLogs,
      // A block without logs still takes a slot.
      sizeCalculation: (logs) => Math.max(1, logs.length),
    });
  }

  /** The canonical-form logs (removed: false) of the block, as `load` builds them on a miss. */
  async get(blockHash: Uint8Array, load: () => Promise<readonly LogWithContext[] | undefined>) {
    const key = bytesToHex(blockHash);
    const cached = this.blocks.get(key);
    if (cached !== undefined) return cached;
    const logs = await load();
    // A block too large for the whole cache is not kept (lru-cache would refuse it anyway).
    if (logs !== undefined && logs.length <= this.maxLogs) this.blocks.set(key, logs);
    return logs;
  }
}
