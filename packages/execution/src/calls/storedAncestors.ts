/**
 * BLOCKHASH for calls that run away from the chain (a call worker, callWorker.ts), read from the
 * stored headers instead of asked of the main thread once per opcode.
 *
 * Exact across reorganizations: a call carries the hash of its block's parent (`CallInput.parentHash`),
 * and each older ancestor is found by following parent hashes through the `header` bucket. A header
 * is stored under its own hash, and that hash covers its parentHash, so the link hash → parent hash
 * never changes: a reorganization changes which hash the canonical index names at a height, never the
 * parent of a hash. The links read are therefore kept without invalidation, and a call only ever sees
 * its own chain, canonical or not, whatever moves meanwhile. The main thread's view (callEnvironment.ts
 * in rpc) reads the canonical index for a canonical block instead; both give the block's ancestors.
 */
import {Bucket, type KeyValueStore} from "@xchain/db";
import {asBytes, decodeRlpList} from "@xchain/primitives";
import {bytesToHex} from "@xchain/utils";
import type {ChainHeaders, ExecutionChainView} from "../types.ts";
import {CallWorkerError, CallWorkerErrorCode} from "./errors.ts";

/**
 * The BlockHeader native contract's reads, which a worker leaves to the main thread (whose chain store knows
 * bodies and total difficulties): the call stops here and the call service runs it again in-process.
 */
const needsMainThread = (): Promise<never> =>
  Promise.reject(
    new CallWorkerError(
      {code: CallWorkerErrorCode.NEEDS_MAIN_THREAD, reason: "the BlockHeader contract reads the chain's headers"},
      "call worker: the call reads the chain's headers (BlockHeader contract); it runs on the main thread",
    ),
  );
const MAIN_THREAD_HEADERS: ChainHeaders = {
  headerAt: needsMainThread,
  uncles: needsMainThread,
  totalDifficulty: needsMainThread,
};

/** How many ancestors BLOCKHASH reaches. */
const BLOCKHASH_WINDOW = 256;
/**
 * Parent links kept (about 200 bytes each): the windows of a few heads, as the head moves and calls
 * arrive at recent blocks.
 */
const LINKS_KEPT = 4 * BLOCKHASH_WINDOW;

/** The ancestors of stored blocks, by parent links read from the store. */
export class StoredAncestors {
  /** Block hash (hex) → its parent's hash; oldest first. */
  private readonly links = new Map<string, Uint8Array>();

  constructor(private readonly store: Pick<KeyValueStore, "get">) {}

  /** The chain view of a call in the block at `number` whose parent is `parentHash` (no REMASC: a call runs none). */
  view(number: number, parentHash: Uint8Array): ExecutionChainView {
    // ancestors[i] is the hash of block number - 1 - i, extended as deeper ones are asked.
    const ancestors = [parentHash];
    return {
      remasc: undefined,
      headers: MAIN_THREAD_HEADERS,
      blockHash: async (n) => {
        if (n >= number || n < number - BLOCKHASH_WINDOW || n < 0) return undefined;
        const depth = number - 1 - n;
        while (ancestors.length <= depth) {
          const parent = await this.parentOf(ancestors[ancestors.length - 1] as Uint8Array);
          if (parent === undefined) return undefined;
          ancestors.push(parent);
        }
        return ancestors[depth];
      },
    };
  }

  /** The parent hash of the stored block `hash`, or undefined when it is not stored. */
  private async parentOf(hash: Uint8Array): Promise<Uint8Array | undefined> {
    const key = bytesToHex(hash);
    const known = this.links.get(key);
    if (known) return known;
    const header = await this.store.get(Bucket.header, hash);
    if (header === undefined) return undefined;
    // A copy: the decoded item is a view of the whole header's bytes, which the link must not keep.
    const parent = asBytes(decodeRlpList(header, "header")[0], "parentHash").slice();
    this.links.set(key, parent);
    if (this.links.size > LINKS_KEPT) this.links.delete(this.links.keys().next().value as string);
    return parent;
  }
}
