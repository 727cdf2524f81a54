/**
 * Answers of eth_call already computed (docs/rpc.md §4.4): keyed by the hash of the block the call
 * ran at and every field that changes its run (sender, recipient, gas, gas price, value, data), so
 * an entry never goes stale: a block hash names the state, the block context and the ancestry the
 * call saw. A tag or number is never a key (it names another block after the head moves). Calls with
 * a state override are not kept. Bounded by entries and bytes, least recently used dropped first.
 */
import {toData} from "@xchain/utils";
import {LRUCache} from "lru-cache";
import type {RpcError} from "../../jsonrpc/errors.ts";
import type {CallRequest} from "../../params/callObject.ts";

/** A kept answer: the returned data, or the error a failed run gave (a revert, out of gas). */
export type CachedCallAnswer = {ok: string} | {error: RpcError};

/** Hits and misses since start, and what is kept now. */
export interface CallCacheStats {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
}

/** Entries beyond the key and the answer (the LRU's own bookkeeping), in bytes. */
const ENTRY_OVERHEAD_BYTES = 200;

/** The eth_call answer cache; `maxBytes` 0 keeps nothing. */
export class CallResultCache {
  private readonly entries: LRUCache<string, CachedCallAnswer> | undefined;
  private hits = 0;
  private misses = 0;

  constructor(maxBytes: number) {
    this.entries =
      maxBytes > 0
        ? new LRUCache({
            maxSize: maxBytes,
            sizeCalculation: (answer, key) => key.length + answerBytes(answer) + ENTRY_OVERHEAD_BYTES,
          })
        : undefined;
  }

  /** The key of `request` run with `gas` at the block `blockHash`. */
  static key(blockHash: Uint8Array, request: CallRequest, gas: bigint): string {
    const to = request.to === undefined ? "" : toData(request.to);
    const from = request.from === undefined ? "" : toData(request.from);
    const data = request.data === undefined ? "" : toData(request.data);
    return `${toData(blockHash)}|${from}|${to}|${gas}|${request.gasPrice ?? 0n}|${request.value ?? 0n}|${data}`;
  }

  get(key: string): CachedCallAnswer | undefined {
    const answer = this.entries?.get(key);
    if (answer === undefined) this.misses++;
    else this.hits++;
    return answer;
  }

  set(key: string, answer: CachedCallAnswer): void {
    this.entries?.set(key, answer);
  }

  stats(): CallCacheStats {
    return {
      hits: this.hits,
      misses: this.misses,
      entries: this.entries?.size ?? 0,
      bytes: this.entries?.calculatedSize ?? 0,
    };
  }
}

function answerBytes(answer: CachedCallAnswer): number {
  return "ok" in answer ? answer.ok.length : answer.error.message.length + (answer.error.data?.length ?? 0);
}
