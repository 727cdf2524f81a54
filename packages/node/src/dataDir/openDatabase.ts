/**
 * Opening the node's database so that it can neither vanish nor lie (docs/operations.md §6): a
 * database is created only in a data directory that never held one; a missing, damaged or rewound
 * database stops start-up with an error naming the damage and the way back.
 */
import {readdir, statfs} from "node:fs/promises";
import {join} from "node:path";
import {DatabaseError, DatabaseErrorCode, LevelStore} from "@xchain/db";
import {type Logger, makeDirectory} from "@xchain/utils";
import {NodeStartError, NodeStartErrorCode} from "../errors.ts";
import {type DataDirRecord, RECORD_FILE, readRecord} from "./record.ts";

/** The database's directory inside a data directory. */
export function databaseDir(dataDir: string): string {
  return join(dataDir, "db");
}

/** Files LevelDB keeps: tables, write-ahead logs, manifests (not LOCK, LOG or LOG.old, which any open creates). */
const LEVELDB_DATA = /^(\d+\.(ldb|sst|log)|MANIFEST-\d+|CURRENT)$/;

/** The open database and what the data directory recorded of it (undefined for a new or pre-record directory). */
export interface OpenedDatabase {
  db: LevelStore;
  record: DataDirRecord | undefined;
}

/**
 * Opens `<dataDir>/db`: creates it only when the directory holds neither a record nor LevelDB files;
 * refuses (NodeStartError) a database that is missing, without its `CURRENT`, damaged, locked or on
 * a full disk. `shared` lets the call workers open it too; `cacheBytes` and `writeBufferBytes` are
 * LevelDB's memory (docs/operations.md §8).
 */
export async function openDatabase(
  dataDir: string,
  opts: {shared: boolean; minFreeBytes: number; cacheBytes?: number; writeBufferBytes?: number},
  logger: Logger,
): Promise<OpenedDatabase> {
  const path = databaseDir(dataDir);
  await makeDirectory(dataDir);
  const {bavail, bsize} = await statfs(dataDir);
  if (bavail * bsize < opts.minFreeBytes) {
    const free = `${((bavail * bsize) / 2 ** 20).toFixed(1)} MiB`;
    const reason = `${free} free, below the floor of ${(opts.minFreeBytes / 2 ** 20).toFixed(1)} MiB (db.minFreeMb)`;
    throw new NodeStartError(
      {code: NodeStartErrorCode.DISK_FULL, dataDir, reason},
      `no space left on the device of ${dataDir}: ${reason}; free some space and start again (nothing stored is lost)`,
    );
  }
  let record: DataDirRecord | undefined;
  try {
    record = await readRecord(dataDir);
  } catch (e) {
    throw new NodeStartError(
      {code: NodeStartErrorCode.DATABASE_DAMAGED, dataDir, reason: (e as Error).message},
      `${(e as Error).message}: fix or remove it (the node then records its database anew)`,
    );
  }
  const files = (await readdir(path).catch(() => [] as string[])).filter((f) => LEVELDB_DATA.test(f));
  if (!files.includes("CURRENT")) {
    if (files.length > 0) throw damaged(dataDir, "its CURRENT file is missing", true);
    if (record) {
      throw new NodeStartError(
        {code: NodeStartErrorCode.DATABASE_MISSING, dataDir},
        `the database of ${dataDir} is gone: ${join(dataDir, RECORD_FILE)} records ${record.network} up to block ` +
          `${record.head.number}, but ${path} holds no database. Restore it from a back-up, or remove ` +
          `${RECORD_FILE} to start a new chain there (a node with peers then syncs again)`,
      );
    }
  }
  try {
    const db = await LevelStore.open(
      path,
      {
        threads: opts.shared ? "share" : undefined,
        create: files.length === 0,
        minFreeBytes: opts.minFreeBytes,
        cacheBytes: opts.cacheBytes,
        writeBufferBytes: opts.writeBufferBytes,
      },
      {logger: logger.child({module: "db"})},
    );
    return {db, record};
  } catch (e) {
    throw startErrorOf(e, dataDir);
  }
}

/** The start-up error for a database failure met while opening or first reading the database. */
export function startErrorOf(e: unknown, dataDir: string): unknown {
  if (!(e instanceof DatabaseError)) return e;
  switch (e.type.code) {
    case DatabaseErrorCode.LOCKED:
      return new NodeStartError(
        {code: NodeStartErrorCode.DATADIR_IN_USE, dataDir},
        `the data directory ${dataDir} is in use by another xchain node (its database is locked); ` +
          "stop that node or start this one with another --datadir",
      );
    case DatabaseErrorCode.CORRUPTED:
      return damaged(dataDir, e.type.reason, true);
    case DatabaseErrorCode.DISK_FULL:
      return new NodeStartError(
        {code: NodeStartErrorCode.DISK_FULL, dataDir, reason: e.type.reason},
        `no space left on the device of ${e.type.path}: free some space and start again (nothing stored is lost)`,
      );
    default:
      return new NodeStartError(
        {code: NodeStartErrorCode.DATADIR_UNUSABLE, dataDir, reason: e.message},
        `cannot use the data directory ${dataDir}: ${e.message}`,
      );
  }
}

/** The refusal for a damaged database, with the commands that find and repair the damage. */
export function damaged(dataDir: string, reason: string, repairable: boolean): NodeStartError {
  const how = repairable
    ? `run \`xchain db repair --datadir ${dataDir}\` (it keeps every block that is whole, and rewinds the head to the last one; docs/operations.md §6)`
    : "see docs/operations.md §6";
  return new NodeStartError(
    {code: NodeStartErrorCode.DATABASE_DAMAGED, dataDir, reason},
    `the database of ${dataDir} is damaged (${reason}); ${how}`,
  );
}
