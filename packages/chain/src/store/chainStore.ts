/** The chain's repositories over one `KeyValueStore`; each owns its buckets (README: storage layout). */
import type {KeyValueStore} from "@xchain/db";
import type {BlockDecodeOptions} from "@xchain/primitives";
import type {ChainOptions} from "../options.ts";
import {BlockLogsCache} from "./blockLogsCache.ts";
import {BlockStore} from "./blockStore.ts";
import {CanonicalIndex} from "./canonicalIndex.ts";
import {MetaStore} from "./metaStore.ts";
import {ReceiptStore} from "./receiptStore.ts";
import {TotalDifficultyStore} from "./totalDifficultyStore.ts";

/** Every repository of the chain. */
export class ChainStore {
  readonly blocks: BlockStore;
  readonly receipts: ReceiptStore;
  readonly totalDifficulty: TotalDifficultyStore;
  readonly canonical: CanonicalIndex;
  readonly meta: MetaStore;
  /** Decoded logs of recently queried blocks. */
  readonly logs: BlockLogsCache;

  constructor(
    readonly kv: KeyValueStore,
    decodeOptions: BlockDecodeOptions,
    options: ChainOptions,
  ) {
    this.blocks = new BlockStore(kv, decodeOptions, options.headerCacheSize);
    this.logs = new BlockLogsCache(options.logCacheMb * 1024 * 1024);
    this.receipts = new ReceiptStore(kv);
    this.totalDifficulty = new TotalDifficultyStore(kv);
    this.canonical = new CanonicalIndex(kv);
    this.meta = new MetaStore(kv);
  }
}
