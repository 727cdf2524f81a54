/**
 * Answers of eth_call already computed (docs/rpc.md §4.4): keyed by the hash of the block the call
 * ran at and every field that changes its run (sender, recipient, gas, gas price, value, data), so
 * an entry never goes stale: a block hash names the state, the block context and the ancestry the
 * call saw. A tag or number is never a key (it names another block after the head moves). Calls with
 * a state override are not kept. A dev control's edit of the head's state is the one change a block
 * hash does not name: the server clears the cache on the chain's `stateEdited`. Bounded by entries
 * and bytes, least recently used dropped first.
 */
import {toData} from "@xchain/utils";
import type {RpcError} from "../jsonrpc/errors.ts";
import type {CallRequest} from "../params/callObject.ts";
import {AnswerCache, type AnswerCacheStats} from "./answerCache.ts";

/** A kept answer: the returned data, or the error a failed run gave (a revert, out of gas). */
export type CachedCallAnswer = {ok: string} | {error: RpcError};

/** Hits and misses since start, and what is kept now. */
export type CallCacheStats = AnswerCacheStats;

/** Entries beyond the key and the answer (the LRU's own bookkeeping), in bytes. */
const ENTRY_OVERHEAD_BYTES = 200;

/** The eth_call answer cache; `maxBytes` 0 keeps nothing. */
export class CallResultCache extends AnswerCache<CachedCallAnswer> {
  constructor(maxBytes: number) {
    super({maxBytes, sizeOf: (answer, key) => key.length + answerBytes(answer) + ENTRY_OVERHEAD_BYTES});
  }

  /** The key of `request` run with `gas` at the block `blockHash`. */
  static key(blockHash: Uint8Array, request: CallRequest, gas: bigint): string {
    const to = request.to === undefined ? "" : toData(request.to);
    const from = request.from === undefined ? "" : toData(request.from);
    const data = request.data === undefined ? "" : toData(request.data);
    return `${toData(blockHash)}|${from}|${to}|${gas}|${request.gasPrice ?? 0n}|${request.value ?? 0n}|${data}`;
  }
}

function answerBytes(answer: CachedCallAnswer): number {
  return "ok" in answer ? answer.ok.length : answer.error.message.length + (answer.error.data?.length ?? 0);
}
