/**
 * The JSON of blocks already formatted for eth_getBlockByHash and eth_getBlockByNumber (docs/rpc.md
 * §4.3), the hashes form and the full-transactions form, by block hash: a block asked for again is
 * answered with the same bytes, without reading, decoding, recovering senders or serializing again.
 * A block hash fixes everything the object shows (header, body, and totalDifficulty, the sum over
 * the block's own ancestry), so an entry never goes stale, canonical or not: a reorganization only
 * changes which hash a number names, and numbers are resolved to a hash before the cache is asked.
 */
import {toData} from "@xchain/utils";
import type {RawJson} from "../jsonrpc/rawJson.ts";
import {AnswerCache} from "./answerCache.ts";

/** The LRU's bookkeeping and the key, per entry, in bytes. */
const ENTRY_OVERHEAD_BYTES = 300;
/** No one block may take more than this share of the cache (a 3 MB block must not flush every other). */
const MAX_ENTRY_SHARE = 4;

/** The formatted-block cache; `maxBytes` 0 keeps nothing. */
export class BlockJsonCache extends AnswerCache<RawJson> {
  constructor(maxBytes: number) {
    super({
      maxBytes,
      maxEntryBytes: Math.max(1, Math.floor(maxBytes / MAX_ENTRY_SHARE)),
      sizeOf: (json) => json.bytes.length + ENTRY_OVERHEAD_BYTES,
    });
  }

  /** The key of the block `blockHash` in one form. */
  static key(blockHash: Uint8Array, fullTransactions: boolean): string {
    return `${toData(blockHash)}${fullTransactions ? "+" : ""}`;
  }
}
