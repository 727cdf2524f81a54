/**
 * Answers kept by a key that fixes them (a block hash and the request's fields), bounded in bytes,
 * least recently used dropped first, counting hits and misses for the metrics: the eth_call answer
 * cache and the formatted-block cache are both one.
 */
import {LRUCache} from "lru-cache";

/** Hits and misses since start, and what is kept now. */
export interface AnswerCacheStats {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
}

/** How an answer cache is bounded. */
export interface AnswerCacheLimits<V> {
  /** The most bytes kept; 0 keeps nothing. */
  maxBytes: number;
  /** The bytes one entry counts for, its key and the LRU's bookkeeping included. */
  sizeOf(value: V, key: string): number;
  /** The largest entry kept (default `maxBytes`). */
  maxEntryBytes?: number;
}

/** A byte-bounded LRU of answers that counts its hits and misses. */
export class AnswerCache<V extends {}> {
  private readonly entries: LRUCache<string, V> | undefined;
  private hits = 0;
  private misses = 0;
  /** Bumped by `clear`: an answer computed from before it is not kept (`set`'s `since`). */
  private generation = 0;

  constructor({maxBytes, sizeOf, maxEntryBytes}: AnswerCacheLimits<V>) {
    this.entries =
      maxBytes > 0
        ? new LRUCache({maxSize: maxBytes, maxEntrySize: maxEntryBytes ?? maxBytes, sizeCalculation: sizeOf})
        : undefined;
  }

  get(key: string): V | undefined {
    const value = this.entries?.get(key);
    if (value === undefined) this.misses++;
    else this.hits++;
    return value;
  }

  /** The generation to pass to `set` for an answer computed from now on. */
  currentGeneration(): number {
    return this.generation;
  }

  /** Keeps `value`, unless the cache was cleared since the generation `since` its computation began. */
  set(key: string, value: V, since = this.generation): void {
    if (since === this.generation) this.entries?.set(key, value);
  }

  /** Drops every answer, and those being computed (what their key names has changed: a dev state edit). */
  clear(): void {
    this.entries?.clear();
    this.generation++;
  }

  stats(): AnswerCacheStats {
    return {
      hits: this.hits,
      misses: this.misses,
      entries: this.entries?.size ?? 0,
      bytes: this.entries?.calculatedSize ?? 0,
    };
  }
}
