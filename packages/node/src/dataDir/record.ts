/**
 * `<dataDir>/database.json`: what the data directory holds, kept beside the database rather than in
 * it, so that a database that vanished or went back in time is noticed (docs/operations.md §6):
 * the network, its genesis, and the last head this node stored. The head is a lower bound: it is
 * written after the block's batch, at most once a second and on close, so a crash leaves it behind
 * the database, never ahead of what was stored.
 */
import {open, readFile, rename} from "node:fs/promises";
import {join} from "node:path";
import {bytesToPrefixedHex} from "@xchain/utils";

export const RECORD_FILE = "database.json";
const FORMAT = 1;
/** Head updates closer together than this are written as one. */
const WRITE_INTERVAL_MS = 1_000;

export interface DataDirRecord {
  format: typeof FORMAT;
  network: string;
  chainId: number;
  /** The genesis block's hash (0x hex). */
  genesis: string;
  head: {number: number; hash: string};
}

/** The record of `dataDir`; undefined when there is none; throws a readable Error when it is not one. */
export async function readRecord(dataDir: string): Promise<DataDirRecord | undefined> {
  const path = join(dataDir, RECORD_FILE);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
  const record = parseRecord(text);
  if (!record) throw new Error(`${path} is not a database record of this node (format ${FORMAT})`);
  return record;
}

function parseRecord(text: string): DataDirRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const r = value as Partial<DataDirRecord> | null;
  const hex32 = (s: unknown) => typeof s === "string" && /^0x[0-9a-f]{64}$/.test(s);
  const ok =
    r !== null &&
    typeof r === "object" &&
    r.format === FORMAT &&
    typeof r.network === "string" &&
    Number.isSafeInteger(r.chainId) &&
    hex32(r.genesis) &&
    typeof r.head === "object" &&
    r.head !== null &&
    Number.isSafeInteger(r.head.number) &&
    r.head.number >= 0 &&
    hex32(r.head.hash);
  return ok ? (r as DataDirRecord) : undefined;
}

/** Writes `record` atomically (a temporary file renamed over the old one), synced to disk when `sync`. */
export async function writeRecord(dataDir: string, record: DataDirRecord, sync = false): Promise<void> {
  const path = join(dataDir, RECORD_FILE);
  const temporary = `${path}.tmp`;
  const file = await open(temporary, "w", 0o644);
  try {
    await file.writeFile(`${JSON.stringify(record, null, 2)}\n`);
    if (sync) await file.sync();
  } finally {
    await file.close();
  }
  await rename(temporary, path);
}

/** The head part of a record. */
export function recordedHead(head: {number: number; hash: Uint8Array}): DataDirRecord["head"] {
  return {number: head.number, hash: bytesToPrefixedHex(head.hash)};
}

/** Where the record is kept and what it starts from. */
export interface HeadRecorderOptions {
  dataDir: string;
  record: DataDirRecord;
}

/** Where a failed write is reported. */
export interface HeadRecorderModules {
  onError: (e: unknown) => void;
}

/**
 * Keeps the record's head up with the chain's: `update` on every new head; writes are coalesced to
 * at most one a second, and `close` writes the last head and syncs it.
 */
export class HeadRecorder {
  private readonly dataDir: string;
  private readonly onError: (e: unknown) => void;
  private latest: DataDirRecord;
  private written: DataDirRecord["head"] | undefined;
  private writing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private closed = false;
  /** Failures are reported once until a write succeeds again (a full disk fails every second). */
  private failing = false;

  constructor({dataDir, record}: HeadRecorderOptions, {onError}: HeadRecorderModules) {
    this.dataDir = dataDir;
    this.onError = onError;
    this.latest = record;
  }

  update(head: {number: number; hash: Uint8Array}): void {
    this.latest = {...this.latest, head: recordedHead(head)};
    this.schedule();
  }

  /** Writes the last head (synced) and stops. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.writing;
    if (this.written !== this.latest.head) await this.write(true);
  }

  private schedule(): void {
    if (this.closed || this.timer || this.writing || this.written === this.latest.head) return;
    const wait = Math.max(0, this.lastWriteAt + WRITE_INTERVAL_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.writing = this.write(false).finally(() => {
        this.writing = undefined;
        this.schedule();
      });
    }, wait);
  }

  private async write(sync: boolean): Promise<void> {
    const record = this.latest;
    this.lastWriteAt = Date.now();
    try {
      await writeRecord(this.dataDir, record, sync);
      this.written = record.head;
      this.failing = false;
    } catch (e) {
      if (!this.failing) this.onError(e);
      this.failing = true;
    }
  }
}
