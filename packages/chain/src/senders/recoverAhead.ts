/**
 * Import as a pipeline (docs/performance.md §3): while the caller imports item N, the senders of the
 * next `lookahead` items are recovered on another core (`SenderRecovery`). Items come out in the
 * source's order, each once its senders are recovered; the recovery's failure (its worker stopped)
 * is thrown where that item would have come out, and the source's own failure after every item it
 * gave before failing.
 */
import type {Chainspec} from "@xchain/chainspec";
import {Block, BlockDecodeError, type Transaction} from "@xchain/primitives";
import type {SenderRecovery} from "./senderRecovery.ts";

/** What `recoverAhead` reads ahead with. */
export interface RecoverAheadOptions<T> {
  /** Items whose senders are being recovered while the caller works on the current one (≥ 1). */
  lookahead: number;
  /** The transactions of an item (none: nothing to recover). */
  transactionsOf(item: T): readonly Transaction[];
}

interface Ahead<T> {
  item: T;
  recovered: Promise<void>;
}

/** Yields the items of `source` in order, each after `recovery` recovered its transactions' senders. */
export async function* recoverAhead<T>(
  source: AsyncIterable<T> | Iterable<T>,
  recovery: SenderRecovery,
  options: RecoverAheadOptions<NoInfer<T>>,
): AsyncGenerator<T> {
  const iterator = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  const lookahead = Math.max(1, options.lookahead);
  const queue: Ahead<T>[] = [];
  let done = false;
  // The source's own failure (a truncated file) comes out after the items it gave before it.
  let sourceError: {error: unknown} | undefined;
  try {
    while (true) {
      while (!done && queue.length < lookahead + 1) {
        let next: IteratorResult<T>;
        try {
          next = await iterator.next();
        } catch (error) {
          sourceError = {error};
          done = true;
          break;
        }
        if (next.done) {
          done = true;
          break;
        }
        const recovered = recovery.recover(options.transactionsOf(next.value));
        // Awaited when the item comes out; until then a failure must not count as unhandled.
        recovered.catch(() => undefined);
        queue.push({item: next.value, recovered});
      }
      const head = queue.shift();
      if (!head) {
        if (sourceError) throw sourceError.error;
        return;
      }
      await head.recovered;
      yield head.item;
    }
  } finally {
    if (!done) await iterator.return?.();
  }
}

/**
 * `bytes` decoded as the chain's import decodes them, for `recoverAhead` to see its transactions; bytes
 * that are no block come back as they are, so that the import refuses them with the error it gives today.
 */
export function decodeForImport(bytes: Uint8Array, chainspec: Chainspec): Block | Uint8Array {
  try {
    return Block.decode(bytes, {rules: chainspec, chainId: chainspec.params.chainId});
  } catch (e) {
    if (e instanceof BlockDecodeError) return bytes;
    throw e;
  }
}

/** The transactions of a block, none of bytes that did not decode. */
export function transactionsOfBlock(block: Block | Uint8Array): readonly Transaction[] {
  return block instanceof Block ? block.transactions : [];
}
