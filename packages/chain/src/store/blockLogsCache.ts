/**
 * The logs of recently queried blocks, decoded, by block hash: a block's logs never change, so
 * repeated log queries over the same blocks (dapps polling a range, indexers paging) skip the
 * reads of block and receipts and their decoding. Bounded by an estimate of the bytes held.
 */
import {bytesToHex} from "@xchain/utils";
import {LRUCache} from "lru-cache";
import type {LogWithContext} from "../types.ts";

/**
 * Estimated heap bytes of a cached log beyond its data: the context and log objects, the arrays of
 * address and topics (views into the decoded receipt, whose bytes they keep alive) and the topics
 * list; and of a cached block beyond its logs (the key and the list).
 */
const LOG_BYTES = 350;
const TOPIC_BYTES = 110;
const BLOCK_BYTES = 250;

/** The estimated bytes a block's cached logs take. */
export function blockLogsBytes(logs: readonly LogWithContext[]): number {
  let bytes = BLOCK_BYTES;
  for (const {log} of logs) bytes += LOG_BYTES + TOPIC_BYTES * log.topics.length + log.data.length;
  return bytes;
}

export class BlockLogsCache {
  private readonly blocks: LRUCache<string, readonly LogWithContext[]> | undefined;

  /** `maxBytes`: the estimated bytes held in all (`ChainOptions.logCacheMb`, in bytes); 0 keeps nothing. */
  constructor(readonly maxBytes: number) {
    this.blocks = maxBytes > 0 ? new LRUCache({maxSize: maxBytes, sizeCalculation: blockLogsBytes}) : undefined;
  }

  /** The canonical-form logs (removed: false) of the block, as `load` builds them on a miss. */
  async get(blockHash: Uint8Array, load: () => Promise<readonly LogWithContext[] | undefined>) {
    const key = bytesToHex(blockHash);
    const cached = this.blocks?.get(key);
    if (cached !== undefined) return cached;
    const logs = await load();
    // A block too large for the whole cache is not kept (lru-cache would refuse it anyway).
    if (logs !== undefined && blockLogsBytes(logs) <= this.maxBytes) this.blocks?.set(key, logs);
    return logs;
  }

  /** Estimated bytes held. */
  bytes(): number {
    return this.blocks?.calculatedSize ?? 0;
  }
}
