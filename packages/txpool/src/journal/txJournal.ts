/**
 * The transaction journal (geth's `transactions.rlp`, docs/operations.md §7): the pool's
 * transactions written to a file of the data directory on a clean stop and every
 * `rejournalSeconds`, and admitted again through the normal admission path at start-up, so that
 * pending transactions survive a restart (a kill -9 loses at most one interval of them).
 */
import {open} from "node:fs/promises";
import {bytesToHex, keccak256, type Logger, noopLogger, SerialQueue, writeFileAtomically} from "@xchain/utils";
import {TxPoolError} from "../errors.ts";
import type {TxPoolOptions} from "../options.ts";
import type {TxPoolApi} from "../types.ts";
import {decodeJournal, encodeJournal, JOURNAL_MAGIC} from "./codec.ts";

/** Where the journal lives and how it is kept (the rest from the pool's options). */
export type TxJournalOptions = Pick<TxPoolOptions, "rejournalSeconds" | "journalMaxBytes" | "maxTransactionBytes"> & {
  /** The journal file (the node's `<dataDir>/txpool.journal`). */
  path: string;
};

/** What the journal reads of the pool and writes to. */
export type JournalPool = Pick<TxPoolApi, "addRaw" | "pendingForBlock" | "content" | "revision">;

/** The components the journal is built with. */
export interface TxJournalModules {
  pool: JournalPool;
  /** A damaged file or a failed write is one warn line; each refused transaction a debug line. */
  logger?: Logger;
}

/** What `load` did. */
export interface JournalLoadResult {
  /** Transactions the file held (those read before any damage). */
  read: number;
  /** Of those, admitted to the pool. */
  admitted: number;
}

/** Keeps the pool's transactions in a file across restarts; `start` after `load`, `close` on a clean stop. */
export class TxJournal {
  private readonly logger: Logger;
  private readonly writes = new SerialQueue();
  private timer: ReturnType<typeof setInterval> | undefined;
  /** The pool revision last written; a tick with the same revision writes nothing. */
  private writtenRevision: number | undefined;
  /** Nothing is written before `load` has read the file: a start-up cut short must not replace it with an empty pool. */
  private loaded = false;

  constructor(
    private readonly opts: TxJournalOptions,
    private readonly modules: TxJournalModules,
  ) {
    this.logger = modules.logger ?? noopLogger;
  }

  /**
   * Admits the transactions of the file, in the order written; never throws for the file's sake:
   * a missing file is an empty journal, a damaged one is reported once and whatever decodes is used.
   */
  async load(): Promise<JournalLoadResult> {
    const {path} = this.opts;
    const bytes = await this.readFile();
    if (bytes === undefined) {
      this.loaded = true;
      return {read: 0, admitted: 0};
    }
    const {records, damage} = decodeJournal(bytes.data, this.opts.maxTransactionBytes);
    const problem = damage ?? bytes.cut;
    if (problem !== undefined) {
      this.logger.warn(
        {path, damage: problem, read: records.length},
        `transaction journal ${path} is damaged (${problem}): using the ${records.length} transactions before it`,
      );
    }
    let admitted = 0;
    for (const raw of records) {
      try {
        await this.modules.pool.addRaw(raw);
        admitted++;
      } catch (e) {
        if (!(e instanceof TxPoolError)) throw e;
        // A legacy transaction's hash is the hash of its raw bytes.
        const hash = `0x${bytesToHex(keccak256(raw))}`;
        this.logger.debug({hash, code: e.code}, `journaled transaction ${hash} dropped: ${e.message}`);
      }
    }
    this.loaded = true;
    this.logger.info(
      {path, read: records.length, admitted},
      `transaction journal: ${admitted} of ${records.length} transactions admitted again`,
    );
    return {read: records.length, admitted};
  }

  /** Rewrites the journal every `rejournalSeconds` while the pool changes. */
  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => void this.write(), this.opts.rejournalSeconds * 1000);
    this.timer.unref();
  }

  /**
   * Writes the pool's transactions to the file, atomically, unless the pool has not changed since
   * the last write or the file has not been loaded yet; a failure (a full disk) is a warn line and
   * the old file stays.
   */
  write(): Promise<void> {
    return this.writes.run(async () => {
      const revision = this.modules.pool.revision();
      if (!this.loaded || revision === this.writtenRevision) return;
      const records = journalRecords(this.modules.pool, this.opts.journalMaxBytes - JOURNAL_MAGIC.length);
      try {
        await writeFileAtomically(this.opts.path, encodeJournal(records));
        this.writtenRevision = revision;
      } catch (e) {
        this.logger.warn({err: e, path: this.opts.path}, `writing the transaction journal ${this.opts.path} failed`);
      }
    });
  }

  /** Stops the timer and writes the journal one last time (call once the pool takes nothing more). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.write();
  }

  /** The file's bytes, at most `journalMaxBytes` of them; undefined when there is no file or it cannot be read. */
  private async readFile(): Promise<{data: Uint8Array; cut?: string} | undefined> {
    const {path, journalMaxBytes} = this.opts;
    let file: Awaited<ReturnType<typeof open>>;
    try {
      file = await open(path, "r");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      this.logger.warn({err: e, path}, `cannot read the transaction journal ${path}: starting without it`);
      return undefined;
    }
    try {
      const {size} = await file.stat();
      const data = new Uint8Array(Math.min(size, journalMaxBytes));
      const {bytesRead} = await file.read(data, 0, data.length, 0);
      const cut = size > journalMaxBytes ? `the file has ${size} bytes, beyond journalMaxBytes` : undefined;
      return {data: data.subarray(0, bytesRead), ...(cut && {cut})};
    } catch (e) {
      this.logger.warn({err: e, path}, `cannot read the transaction journal ${path}: starting without it`);
      return undefined;
    } finally {
      await file.close();
    }
  }
}

/**
 * The raw transactions to journal within `budget` bytes: the pending ones in block order (the best
 * paying first, each sender's in nonce order), then the queued ones, each sender's in nonce order;
 * the first that does not fit ends the list (each record costs 4 bytes of length besides its bytes).
 * Impersonated transactions are left out: their sender is not in their bytes, and the impersonation
 * that admitted them does not outlive the node (docs/operations.md §7).
 */
export function journalRecords(pool: Pick<JournalPool, "pendingForBlock" | "content">, budget: number): Uint8Array[] {
  const queued = [...pool.content().queued.values()].flatMap((byNonce) =>
    [...byNonce.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, tx]) => tx),
  );
  const records: Uint8Array[] = [];
  let used = 0;
  for (const tx of [...pool.pendingForBlock(), ...queued]) {
    if (tx.impersonatedSender) continue;
    const raw = tx.encode();
    used += 4 + raw.length;
    if (used > budget) break;
    records.push(raw);
  }
  return records;
}

/** The journal's file name inside the data directory. */
export const JOURNAL_FILE = "txpool.journal";
