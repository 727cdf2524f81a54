/**
 * The flat state's part of a batch that changes the head's state (docs/operations.md §13): an import
 * that makes a new head, a reorganization, `setHead`, a dev edit. Its ops join the batch, so the flat
 * state and the head move together or not at all.
 */
import type {WriteBatch} from "@xchain/db";
import type {FlatStateWriter} from "@xchain/state";

const NOTHING = (): void => {};

/**
 * Adds to `batch` the flat state's move from the head state `from` to `to` (the batch's own trie
 * writes may hold `to`'s new nodes); returns what to run once the batch is written.
 */
export async function flatHeadMove(
  writer: FlatStateWriter | undefined,
  batch: WriteBatch,
  from: Uint8Array,
  to: Uint8Array,
): Promise<() => void> {
  if (writer === undefined) return NOTHING;
  const change = await writer.headChange(from, to, batch.ops);
  batch.append(change.ops);
  return () => writer.applied(change);
}
