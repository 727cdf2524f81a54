/**
 * The transaction journal's file format (docs/operations.md §7): a magic line, then one record per
 * transaction, a 4-byte big-endian length followed by the transaction's raw (RLP) bytes. Records
 * are read one by one, so a truncated or damaged file still yields every record before the damage;
 * each record is a signed transaction that admission checks again, so no checksum is kept.
 */
import {utf8ToBytes} from "@xchain/utils";

/** The file's first bytes: what it is and the format's version. */
export const JOURNAL_MAGIC = utf8ToBytes("xchain txpool journal v1\n");

const LENGTH_BYTES = 4;

/** What a journal file held: the records read, and what stopped the reading early, if anything. */
export interface DecodedJournal {
  records: Uint8Array[];
  /** Why reading stopped before the end of the file (a wrong header, a truncated or impossible record). */
  damage?: string;
}

/** The bytes of a journal holding `records`, in order. */
export function encodeJournal(records: readonly Uint8Array[]): Uint8Array {
  let size = JOURNAL_MAGIC.length;
  for (const record of records) size += LENGTH_BYTES + record.length;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set(JOURNAL_MAGIC, 0);
  let at = JOURNAL_MAGIC.length;
  for (const record of records) {
    view.setUint32(at, record.length);
    out.set(record, at + LENGTH_BYTES);
    at += LENGTH_BYTES + record.length;
  }
  return out;
}

/**
 * Reads the records of `bytes`; never throws. A record longer than `maxRecordBytes` (no
 * transaction the pool takes is) or running past the end stops the reading, with `damage` saying where.
 */
export function decodeJournal(bytes: Uint8Array, maxRecordBytes: number): DecodedJournal {
  const records: Uint8Array[] = [];
  if (bytes.length < JOURNAL_MAGIC.length || !JOURNAL_MAGIC.every((b, i) => bytes[i] === b)) {
    return {records, damage: "the file does not start with the journal header"};
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = JOURNAL_MAGIC.length;
  while (at < bytes.length) {
    if (bytes.length - at < LENGTH_BYTES) return {records, damage: `truncated record length at byte ${at}`};
    const length = view.getUint32(at);
    if (length === 0 || length > maxRecordBytes) {
      return {records, damage: `record of ${length} bytes at byte ${at} (at most ${maxRecordBytes})`};
    }
    const start = at + LENGTH_BYTES;
    if (bytes.length - start < length) {
      return {records, damage: `record at byte ${at} truncated (${bytes.length - start} of ${length} bytes)`};
    }
    // A copy, as a plain Uint8Array even when the file was read into a Buffer.
    records.push(new Uint8Array(bytes.subarray(start, start + length)));
    at = start + length;
  }
  return {records};
}
