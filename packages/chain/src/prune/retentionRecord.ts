/**
 * The state collector's record (meta key `stateCollection`, RLP [phase, cutoff, pruned below,
 * cursor, epoch]; a record written before epochs has no epoch: 0): where a collection stands, written in the batch of each of its steps so that a restart
 * resumes it (docs/operations.md §12), and the lowest block whose state is whole.
 */
import {Bucket, type KeyValueStore, WriteBatch} from "@xchain/db";
import {asBytes, decodeRlpList, decodeSafeInteger, encodeRlp, encodeUnsigned, type RlpItem} from "@xchain/primitives";
import {utf8ToBytes} from "@xchain/utils";

const RECORD_KEY = utf8ToBytes("stateCollection");

/** A collection's phases, in order. */
export enum CollectionPhase {
  /** No collection runs; `cutoff` is the last one's. */
  Idle = 0,
  /** The retained roots are walked and marked; writes of state are marked too. */
  Mark = 1,
  /** Unmarked entries are deleted, `cursor` onwards; writes of state are still marked. */
  Sweep = 2,
  /** The marks are deleted. */
  Clear = 3,
}

export interface RetentionRecord {
  phase: CollectionPhase;
  /** The collection's lowest retained block (Idle: the last collection's, 0 before any). */
  cutoff: number;
  /**
   * The states of blocks below this number may be (partly) deleted: the cutoff of the last collection
   * that began to sweep, lowered when the head is set below it with a whole state (`Chain.setHead`).
   */
  prunedBelow: number;
  /** Sweep: the last key swept. */
  cursor: Uint8Array | undefined;
  /**
   * The collection's number, which its marks carry (`markValue`): a mark of an earlier epoch counts as
   * none, so a finished collection's marks need no clearing (Idle: the last collection's).
   */
  epoch: number;
}

/** A store no collection has touched. */
export const NO_COLLECTION: RetentionRecord = {
  phase: CollectionPhase.Idle,
  cutoff: 0,
  prunedBelow: 0,
  cursor: undefined,
  epoch: 0,
};

export function putRetentionRecord(batch: WriteBatch, record: RetentionRecord): void {
  const {phase, cutoff, prunedBelow, cursor, epoch} = record;
  const int = (n: number) => encodeUnsigned(BigInt(n));
  const fields = [int(phase), int(cutoff), int(prunedBelow), cursor ?? new Uint8Array(0), int(epoch)];
  batch.put(Bucket.meta, RECORD_KEY, encodeRlp(fields));
}

/** The stored record (`NO_COLLECTION` when none is), for the chain and `xchain db inspect`. */
export async function readRetentionRecord(kv: KeyValueStore): Promise<RetentionRecord> {
  const bytes = await kv.get(Bucket.meta, RECORD_KEY);
  if (bytes === undefined) return NO_COLLECTION;
  const [phase, cutoff, prunedBelow, cursor, epoch] = decodeRlpList(bytes, "stateCollection");
  const number = (item: RlpItem | undefined, field: string) =>
    decodeSafeInteger(asBytes(item, `stateCollection ${field}`), `stateCollection ${field}`);
  const phaseNumber = number(phase, "phase");
  if (CollectionPhase[phaseNumber] === undefined) throw new RangeError(`stateCollection: unknown phase ${phaseNumber}`);
  const cursorBytes = asBytes(cursor, "stateCollection cursor");
  return {
    phase: phaseNumber as CollectionPhase,
    cutoff: number(cutoff, "cutoff"),
    prunedBelow: number(prunedBelow, "prunedBelow"),
    cursor: cursorBytes.length === 0 ? undefined : cursorBytes,
    epoch: epoch === undefined ? 0 : number(epoch, "epoch"),
  };
}

/**
 * Ends a collection left marking or sweeping (its marks are then cleared, nothing more swept): for a tool
 * that stores state without marks (`xchain db repair`'s rebuild), whose entries the sweep would delete.
 */
export async function abandonCollection(kv: KeyValueStore): Promise<void> {
  const record = await readRetentionRecord(kv);
  if (record.phase !== CollectionPhase.Mark && record.phase !== CollectionPhase.Sweep) return;
  const batch = new WriteBatch();
  putRetentionRecord(batch, {...record, phase: CollectionPhase.Clear, cursor: undefined});
  await kv.write(batch);
}
