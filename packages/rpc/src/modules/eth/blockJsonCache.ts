/**
 * The JSON of blocks already formatted for eth_getBlockByHash and eth_getBlockByNumber (docs/rpc.md
 * §4.3), the hashes form and the full-transactions form, by block hash: a block asked for again is
 * answered with the same bytes, without reading, decoding, recovering senders or serializing again.
 * A block hash fixes everything the object shows (header, body, and totalDifficulty, the sum over
 * the block's own ancestry), so an entry never goes stale, canonical or not: a reorganization only
 * changes which hash a number names, and numbers are resolved to a hash before the cache is asked.
 * Bounded in bytes, least recently used dropped first.
 */
import {toData} from "@xchain/utils";
import {LRUCache} from "lru-cache";
import type {RawJson} from "../../jsonrpc/rawJson.ts";

/** Hits and misses since start, and what is kept now. */
export interface BlockJsonCacheStats {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
}

/** The LRU's bookkeeping and the key, per entry, in bytes. */
const ENTRY_OVERHEAD_BYTES = 300;
/** No one block may take more than this share of the cache (a 3 MB block must not flush every other). */
const MAX_ENTRY_SHARE = 4;

/** The formatted-block cache; `maxBytes` 0 keeps nothing. */
export class BlockJsonCache {
  private readonly entries: LRUCache<string, RawJson> | undefined;
  private hits = 0;
  private misses = 0;

  constructor(maxBytes: number) {
    this.entries =
      maxBytes > 0
        ? new LRUCache({
            maxSize: maxBytes,
            maxEntrySize: Math.max(1, Math.floor(maxBytes / MAX_ENTRY_SHARE)),
            sizeCalculation: (json) => json.bytes.length + ENTRY_OVERHEAD_BYTES,
          })
        : undefined;
  }

  get(blockHash: Uint8Array, fullTransactions: boolean): RawJson | undefined {
    const json = this.entries?.get(key(blockHash, fullTransactions));
    if (json === undefined) this.misses++;
    else this.hits++;
    return json;
  }

  set(blockHash: Uint8Array, fullTransactions: boolean, json: RawJson): void {
    this.entries?.set(key(blockHash, fullTransactions), json);
  }

  stats(): BlockJsonCacheStats {
    return {
      hits: this.hits,
      misses: this.misses,
      entries: this.entries?.size ?? 0,
      bytes: this.entries?.calculatedSize ?? 0,
    };
  }
}

function key(blockHash: Uint8Array, fullTransactions: boolean): string {
  return `${toData(blockHash)}${fullTransactions ? "+" : ""}`;
}
