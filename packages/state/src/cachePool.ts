import {Caches, CacheType} from "@ethereumjs/statemanager";

/**
 * Entries a session's caches hold, by account (the storage cache keeps each account's slots
 * together). A session must not drop an entry it has yet to write before it commits, so each
 * must hold all that one block can touch: at 6,800,000 gas and 400 gas for the cheapest touch
 * (BALANCE), 17,000 accounts.
 */
export interface CacheSizes {
  accounts: number;
  accountsWithStorage: number;
  codes: number;
}

/** A session reused block after block (import, mining): its caches stay warm across blocks. */
export const LONG_LIVED_CACHES: CacheSizes = {accounts: 100_000, accountsWithStorage: 50_000, codes: 5_000};
/** A session for one block (tracing), 1 ms to create. */
export const ONE_BLOCK_CACHES: CacheSizes = {accounts: 20_000, accountsWithStorage: 20_000, codes: 1_000};

/** Emptied long-lived caches kept for the next cold session (one in use, one spare covers the miner's templates). */
const MAX_SPARE = 2;

/** The part of an ethereumjs cache (account, storage, code) that emptying one needs. */
interface CheckpointedLru {
  _checkpoints: number;
  _diffCache: Map<string, unknown>[];
  _lruCache?: {
    size: number;
    max: number;
    keys(): IterableIterator<string>;
    delete(key: string): boolean;
    clear(): void;
  };
}

/**
 * Long-lived session caches, reused: allocating LRU caches costs time in proportion to their size
 * (3.4 ms for `LONG_LIVED_CACHES`: typed arrays and two 100,000-slot arrays), and a cold session is
 * opened for every template the miner rebuilds on the same parent. The caches of a session that can
 * no longer be reused (its warm slot was taken by a later release) are emptied and handed to the next
 * cold session instead. Emptying costs what the session cached, not what the caches could hold.
 */
export class SessionCachePool {
  private readonly spare: Caches[] = [];

  /** Caches for a new session: a spare one, empty, or new ones. */
  take(sizes: CacheSizes): Caches {
    if (sizes === LONG_LIVED_CACHES) {
      const reused = this.spare.pop();
      if (reused !== undefined) return reused;
    }
    return boundedCaches(sizes);
  }

  /** The caches of a session nobody will use again; kept when they are long-lived and at rest. */
  give(caches: Caches): void {
    if (this.spare.length >= MAX_SPARE || !isLongLived(caches)) return;
    const parts = [caches.account, caches.storage, caches.code] as unknown as CheckpointedLru[];
    // Mid-checkpoint (an abandoned block), the diff caches hold pre-states: not worth cleaning up.
    if (!parts.every(atRest)) return;
    for (const part of parts) empty(part);
    this.spare.push(caches);
  }
}

function isLongLived(caches: Caches): boolean {
  const {account, storage, code} = caches.settings;
  return (
    account.size === LONG_LIVED_CACHES.accounts &&
    storage.size === LONG_LIVED_CACHES.accountsWithStorage &&
    code.size === LONG_LIVED_CACHES.codes
  );
}

function atRest(part: CheckpointedLru): boolean {
  return part._checkpoints === 0 && part._diffCache.every((diff) => diff.size === 0) && part._lruCache !== undefined;
}

/** Drops every entry: one by one when few (the cost of what is there), else the library's clear (a fill of every slot). */
function empty(part: CheckpointedLru): void {
  const lru = part._lruCache;
  if (lru === undefined) return;
  if (lru.size * 8 > lru.max) {
    lru.clear();
    return;
  }
  for (const key of [...lru.keys()]) lru.delete(key);
}

/** LRU caches, so that a session reused block after block keeps a bounded working set. */
function boundedCaches(sizes: CacheSizes): Caches {
  return new Caches({
    account: {type: CacheType.LRU, size: sizes.accounts},
    storage: {type: CacheType.LRU, size: sizes.accountsWithStorage},
    code: {type: CacheType.LRU, size: sizes.codes},
  });
}
