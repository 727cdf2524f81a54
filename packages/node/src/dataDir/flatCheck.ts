/**
 * The flat state's part of `xchain db verify` and `xchain db repair` (docs/operations.md §13): compared
 * with the trie at its root when complete; a flat state that differs is dropped by the repair (its
 * record deleted: the node generates it again at the next start, reads walk the trie meanwhile).
 */
import {Bucket, DatabaseError, DatabaseErrorCode, type KeyValueStore, WriteBatch} from "@xchain/db";
import {defaultStateOptions, type FlatVerification, StateDatabase, StateError, StateErrorCode} from "@xchain/state";

/** Where the lines go (`ToolOutput`'s). */
interface ToolOutput {
  line(text: string): void;
}

/**
 * The flat state compared with the trie at its root; undefined when that state's trie is no longer
 * stored (a head moved by a tool below the flat state's root): never read, generated again at the next start.
 */
async function verification(db: KeyValueStore): Promise<FlatVerification | undefined | typeof UNREADABLE> {
  try {
    return await new StateDatabase({...defaultStateOptions, nodeCacheBytes: 0}, {store: db}).verifyFlatState();
  } catch (e) {
    if (e instanceof StateError && e.code === StateErrorCode.NODE_MISSING) return undefined;
    if (e instanceof DatabaseError && e.code === DatabaseErrorCode.CORRUPTED) return UNREADABLE;
    throw e;
  }
}

/** LevelDB failed a checksum while reading the flat state or its trie. */
const UNREADABLE = "unreadable";

/** Whether LevelDB fails a checksum reading the flat state (`xchain db repair` then runs LevelDB's repair first). */
export async function flatStateUnreadable(db: KeyValueStore): Promise<boolean> {
  return (await verification(db)) === UNREADABLE;
}

/** Prints what the flat state holds and whether it equals the trie; resolves to false when it differs. */
export async function verifyFlatStateLines(db: KeyValueStore, out: ToolOutput): Promise<boolean> {
  const result = await verification(db);
  if (result === UNREADABLE) {
    out.line("damage: LevelDB reports damage while reading the flat state");
    return false;
  }
  if (result === undefined)
    out.line("flat state: of a state no longer stored (not read; generated again at the next start)");
  else if (result.phase === "none") out.line("flat state: none (the node generates it at its next start)");
  else if (result.phase === "generating") {
    out.line(`flat state: being generated for state 0x${result.root} (not read until complete)`);
  } else if (result.mismatches.length === 0) {
    out.line(`flat state: ${result.checked} entries, equal to the state 0x${result.root}`);
  } else {
    out.line(
      `damage: the flat state differs from the state 0x${result.root} at ${result.mismatches.map((k) => `0x${k}`).join(", ")}`,
    );
    return false;
  }
  return true;
}

/** Deletes the flat state's record when it differs from the trie (the node generates it again); true when it did. */
export async function dropWrongFlatState(db: KeyValueStore, out: ToolOutput): Promise<boolean> {
  const result = await verification(db);
  if (result !== undefined && result !== UNREADABLE && result.mismatches.length === 0) return false;
  await db.write(new WriteBatch().del(Bucket.flatState, new Uint8Array(0)));
  out.line("the flat state did not match the state it names: dropped, the node generates it again at its next start");
  return true;
}
