/** Failures of the database, classified so that callers can name the damage and what to do. */
import {NodeError} from "@xchain/utils";

export enum DatabaseErrorCode {
  /** Another process (or another open in this one) holds the database's lock. */
  LOCKED = "DATABASE_LOCKED",
  /** Opened without creating, and there is no database (LevelDB's `CURRENT` file is absent). */
  MISSING = "DATABASE_MISSING",
  /** LevelDB found damage: a block checksum, a table, the write-ahead log or the manifest. */
  CORRUPTED = "DATABASE_CORRUPTED",
  /** A write failed because the file system is full. */
  DISK_FULL = "DATABASE_DISK_FULL",
  /** Any other failure of LevelDB (an I/O error, a closed database). */
  FAILED = "DATABASE_FAILED",
}

export type DatabaseErrorType =
  | {code: DatabaseErrorCode.LOCKED; path: string}
  | {code: DatabaseErrorCode.MISSING; path: string}
  | {code: DatabaseErrorCode.CORRUPTED; path: string; reason: string}
  | {code: DatabaseErrorCode.DISK_FULL; path: string; reason: string}
  | {code: DatabaseErrorCode.FAILED; path: string; reason: string};

export class DatabaseError extends NodeError<DatabaseErrorType> {}

/** The typed error for a failure classic-level reported while using the database at `path`. */
export function databaseErrorOf(error: unknown, path: string): DatabaseError {
  if (error instanceof DatabaseError) return error;
  const {code, cause} = error as {code?: string; cause?: {code?: string}};
  const reason = error instanceof Error ? error.message : String(error);
  if (cause?.code === "LEVEL_LOCKED" || code === "LEVEL_LOCKED") {
    return new DatabaseError(
      {code: DatabaseErrorCode.LOCKED, path},
      `database at ${path} is in use by another process`,
    );
  }
  const detail = `${reason} ${cause instanceof Error ? cause.message : ""}`;
  if (/No space left on device|ENOSPC/i.test(detail)) {
    return new DatabaseError(
      {code: DatabaseErrorCode.DISK_FULL, path, reason},
      `no space left on the device of the database at ${path}: ${reason}`,
    );
  }
  if (code === "LEVEL_CORRUPTION" || cause?.code === "LEVEL_CORRUPTION" || /Corruption:/.test(detail)) {
    return new DatabaseError(
      {code: DatabaseErrorCode.CORRUPTED, path, reason: corruptionReason(detail)},
      `the database at ${path} is damaged: ${corruptionReason(detail)}`,
    );
  }
  // LevelDB reads a lost file of its own (a manifest CURRENT names, a table) as an I/O error; it is
  // damage that its repair recovers from.
  const lostFile = /\/([^/\s:]+): No such file or directory/.exec(detail);
  if (lostFile) {
    const lost = `its file ${lostFile[1]} is missing`;
    return new DatabaseError(
      {code: DatabaseErrorCode.CORRUPTED, path, reason: lost},
      `the database at ${path} is damaged: ${lost}`,
    );
  }
  if (/does not exist \(create_if_missing is false\)/.test(detail)) {
    return new DatabaseError({code: DatabaseErrorCode.MISSING, path}, `there is no database at ${path}`);
  }
  return new DatabaseError({code: DatabaseErrorCode.FAILED, path, reason}, `the database at ${path} failed: ${reason}`);
}

/** LevelDB's own words ("Corruption: block checksum mismatch"), without classic-level's wrapping. */
function corruptionReason(detail: string): string {
  const match = /Corruption:[^\n]*/.exec(detail);
  return (match?.[0] ?? detail).trim();
}
