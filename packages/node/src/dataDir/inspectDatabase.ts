/**
 * `xchain db inspect` and `xchain db compact` (docs/operations.md §5): what takes the disk of a
 * stopped node, bucket by bucket, with its chain's head, genesis, schema and oldest stored state;
 * and LevelDB's compaction of the whole database.
 */
import {type ChainStoreSummary, SCHEMA_VERSION, summarizeChainStore} from "@xchain/chain";
import type {Chainspec} from "@xchain/chainspec";
import {Bucket, type LevelStore} from "@xchain/db";
import {storedFlatState} from "@xchain/state";
import {directorySize} from "../metrics/dirSize.ts";
import {databaseDir} from "./openDatabase.ts";
import {openStoppedDatabase} from "./stoppedDatabase.ts";

/** One bucket's share of the database. */
export interface BucketSize {
  name: string;
  /** The key byte (`Bucket`). */
  id: number;
  /** LevelDB's estimate of its bytes in the table files (compressed, as on disk). */
  diskBytes: number;
  /** Counted by a scan (undefined with `count: false`): its keys, and their keys' and values' bytes. */
  keys?: number;
  dataBytes?: number;
}

/** What `xchain db inspect` reports (its `--json` output). */
export interface DatabaseInspection {
  dataDir: string;
  /** The files under `<dataDir>/db`: tables, write-ahead log, manifest. */
  totalDiskBytes: number;
  buckets: BucketSize[];
  chain: ChainStoreSummary;
  /** The flat state's record (docs/operations.md §13): the state it describes, complete or how far generated. */
  flatState: Awaited<ReturnType<typeof storedFlatState>>;
  /** The schema version this node reads (`chain.schemaVersion` is the stored one). */
  readsSchemaVersion: number;
  network: string;
  chainId: number;
}

/** Every bucket, by its enum name. */
const BUCKETS: readonly [string, Bucket][] = Object.entries(Bucket).filter(
  (entry): entry is [string, Bucket] => typeof entry[1] === "number",
);

/**
 * Measures `dataDir`'s database: each bucket's size on disk (LevelDB's estimate, a few index reads)
 * and, with `count`, its keys and bytes (a scan reading the whole database: minutes on a large one).
 */
export async function inspectDatabase(
  dataDir: string,
  chainspec: Chainspec,
  opts: {count: boolean},
): Promise<DatabaseInspection> {
  const db = await openStoppedDatabase(dataDir, "inspect");
  try {
    const buckets: BucketSize[] = [];
    for (const [name, id] of BUCKETS) {
      const size: BucketSize = {name, id, diskBytes: await db.approximateBucketBytes(id)};
      if (opts.count) Object.assign(size, await countBucket(db, id));
      buckets.push(size);
    }
    return {
      dataDir,
      totalDiskBytes: await directorySize(databaseDir(dataDir)),
      buckets,
      chain: await summarizeChainStore(db, chainspec),
      flatState: await storedFlatState(db),
      readsSchemaVersion: SCHEMA_VERSION,
      network: chainspec.params.name,
      chainId: chainspec.params.chainId,
    };
  } finally {
    await db.close();
  }
}

async function countBucket(db: LevelStore, bucket: Bucket): Promise<{keys: number; dataBytes: number}> {
  let keys = 0;
  let dataBytes = 0;
  for await (const [key, value] of db.entries(bucket)) {
    keys++;
    // The bucket byte is part of every stored key.
    dataBytes += 1 + key.length + value.length;
  }
  return {keys, dataBytes};
}

/** The text `xchain db inspect` prints. */
export function formatInspection(inspection: DatabaseInspection): string[] {
  const {chain, buckets} = inspection;
  const counted = buckets.some((b) => b.keys !== undefined);
  const lines = [`database: ${databaseDir(inspection.dataDir)}, ${bytes(inspection.totalDiskBytes)} on disk`];
  lines.push(
    counted
      ? `${"bucket".padEnd(24)} ${"on disk".padStart(12)} ${"keys".padStart(12)} ${"keys+values".padStart(12)}`
      : `${"bucket".padEnd(24)} ${"on disk".padStart(12)}`,
  );
  for (const b of buckets) {
    if (b.diskBytes === 0 && !b.keys) continue;
    const row = `${`${b.name} (0x${b.id.toString(16).padStart(2, "0")})`.padEnd(24)} ${bytes(b.diskBytes).padStart(12)}`;
    lines.push(counted ? `${row} ${String(b.keys).padStart(12)} ${bytes(b.dataBytes ?? 0).padStart(12)}` : row);
  }
  lines.push("(on disk: LevelDB's estimate of the bucket's bytes in its table files, compressed)");
  const stored = chain.schemaVersion ?? "none";
  lines.push(
    `network: ${inspection.network} (chain id ${inspection.chainId}); stored chain id ${chain.chainId ?? "none"}`,
  );
  lines.push(`schema version: ${stored} (this node reads ${inspection.readsSchemaVersion})`);
  lines.push(`genesis: ${chain.genesis ? chain.genesis.hash : "none"}`);
  if (chain.fork) lines.push(`fork of ${chain.fork}`);
  lines.push(`head: ${chain.head ? `block ${chain.head.number} ${chain.head.hash}` : "none"}`);
  lines.push(
    `oldest state served: ${chain.oldestState ? `block ${chain.oldestState.number} ${chain.oldestState.hash}` : "none (the head's state is not stored)"}`,
  );
  const flat = inspection.flatState;
  lines.push(
    `flat state: ${flat ? `${flat.complete ? "complete" : `generating (${(flat.progress * 100).toFixed(1)}%)`} for state ${flat.root}` : "none"}`,
  );
  return lines;
}

/** Compacts `dataDir`'s database; resolves to its size on disk before and after. */
export async function compactDatabase(dataDir: string): Promise<{before: number; after: number}> {
  const db = await openStoppedDatabase(dataDir, "compact");
  const path = databaseDir(dataDir);
  try {
    const before = await directorySize(path);
    await db.compact();
    return {before, after: await directorySize(path)};
  } finally {
    await db.close();
  }
}

/** `bytes` in the largest unit that keeps it at or above 1 (B, KiB, MiB, GiB). */
export function bytes(n: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${n} B` : `${value.toFixed(1)} ${units[unit]}`;
}
