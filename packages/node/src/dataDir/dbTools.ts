/**
 * `xchain db verify` and `xchain db repair` (docs/operations.md §6): the walk that finds the first
 * damage, and the way back from it. Both run on a stopped node's data directory.
 */
import {access} from "node:fs/promises";
import {rebuildState, restoreGenesis, rewindChain, verifyChain, verifyStateAt} from "@xchain/chain";
import type {Chainspec, GenesisParams} from "@xchain/chainspec";
import {Bucket, DatabaseError, DatabaseErrorCode, LevelStore, numberKey} from "@xchain/db";
import {bytesToPrefixedHex, hexToBytes} from "@xchain/utils";
import {dropWrongFlatState, flatStateUnreadable, verifyFlatStateLines} from "./flatCheck.ts";
import {databaseDir} from "./openDatabase.ts";
import {type DataDirRecord, RECORD_FILE, readRecord, writeRecord} from "./record.ts";
import {dataDirInUse} from "./stoppedDatabase.ts";

/** Where the tools write their lines (the CLI passes stdout and stderr). */
export interface ToolOutput {
  line(text: string): void;
  progress(text: string): void;
}

const PROGRESS_EVERY = 10_000;

/** Walks the chain and the head state; resolves to whether everything is whole. */
export async function verifyDatabase(dataDir: string, chainspec: Chainspec, out: ToolOutput): Promise<boolean> {
  const path = databaseDir(dataDir);
  let db: LevelStore;
  try {
    db = await LevelStore.open(path, {create: false});
  } catch (e) {
    // A running node's lock is no damage: nothing to repair.
    if (e instanceof DatabaseError && e.code === DatabaseErrorCode.LOCKED) throw dataDirInUse(dataDir, "verify");
    out.line(`damage: ${(e as Error).message}`);
    out.line(`recovery: xchain db repair --datadir ${dataDir}`);
    return false;
  }
  try {
    const result = await verifyChain(db, {
      chainspec,
      onBlock: (n) => n % PROGRESS_EVERY === 0 && n > 0 && out.progress(`checked blocks 0..${n}`),
    });
    const record = await readRecord(dataDir).catch(() => undefined);
    if (result.head) out.line(`head: block ${result.head.number} ${result.head.hash}`);
    if (result.wholeThrough >= 0) out.line(`chain: blocks 0..${result.wholeThrough} whole`);
    let whole = result.damage === undefined;
    if (result.damage) {
      const {number, hash, problem} = result.damage;
      out.line(`damage: block ${number}${hash ? ` ${hash}` : ""}: ${problem}`);
    }
    if (result.state) {
      const {nodes, accounts, codes, damage, block} = result.state;
      if (damage) {
        whole = false;
        out.line(
          `damage: the state at block ${block}: entry ${damage.key || "?"} ${damage.problem}${damage.reason ? ` (${damage.reason})` : ""}`,
        );
      } else {
        out.line(`state at block ${block}: ${nodes} trie nodes, ${accounts} accounts, ${codes} codes: whole`);
        if (!(await verifyFlatStateLines(db, out))) whole = false;
      }
    }
    if (record && result.head && record.head.number > result.head.number) {
      const stored = await db.get(Bucket.header, hexToBytes(record.head.hash)).catch(() => undefined);
      if (!stored) {
        whole = false;
        out.line(
          `damage: ${RECORD_FILE} records block ${record.head.number} as the head, which the database no longer holds (it lost blocks)`,
        );
      }
    }
    out.line(whole ? "the database is whole" : `recovery: xchain db repair --datadir ${dataDir}`);
    return whole;
  } finally {
    await db.close();
  }
}

/**
 * Brings a damaged database back to its highest whole block (docs/operations.md §6): LevelDB's
 * repair when the database does not open or a read fails its checksum (what was in damaged blocks
 * is dropped), the head rewound to the highest block whose chain is whole, and that block's state
 * rebuilt by re-executing the chain when trie nodes were lost; then the data directory's record.
 * Resolves to the new head's number.
 */
export async function repairDatabase(
  dataDir: string,
  network: {chainspec: Chainspec; genesis: GenesisParams},
  out: ToolOutput,
): Promise<number> {
  const {chainspec} = network;
  const path = databaseDir(dataDir);
  await access(path).catch(() => {
    throw new Error(`there is no database at ${path}: nothing to repair (restore a back-up, or start a new chain)`);
  });
  let db = await openOrRepair(dataDir, out);
  try {
    const onBlock = (n: number) => n % PROGRESS_EVERY === 0 && n > 0 && out.progress(`checked blocks 0..${n}`);
    let result = await verifyChain(db, {chainspec, onBlock});
    if (result.unreadable || (await flatStateUnreadable(db))) {
      out.line("LevelDB cannot read part of its files: running LevelDB's repair (the damaged blocks are dropped)");
      await db.close();
      await LevelStore.repair(path);
      db = await LevelStore.open(path, {create: false});
      result = await verifyChain(db, {chainspec, onBlock});
    }
    if (result.damage) out.line(`damage: block ${result.damage.number}: ${result.damage.problem}`);
    if (result.damage) {
      // The genesis block and the head pointer are known without the database: written again, then checked again.
      const restored = await restoreGenesis(db, network);
      if (restored.headRestoredAt !== undefined)
        out.line(`the head pointer was lost: set to block ${restored.headRestoredAt}`);
      result = await verifyChain(db, {chainspec, onBlock});
    }
    let target = result.head ? Math.min(result.head.number, result.wholeThrough) : result.wholeThrough;
    if (target < 0) {
      throw new Error(
        "not even the genesis block is whole: remove the database and start again (with peers it syncs again)",
      );
    }
    if (result.damage || result.head === undefined || target < result.head.number) {
      const rewind = await rewindChain(db, target);
      out.line(
        `rewound the head to block ${target} ${rewind.head.hash}; forgot ${rewind.removedBlocks} block(s) above it`,
      );
    }
    const state = await verifyStateAt(db, chainspec, target);
    if (state.damage) {
      out.line(`the state at block ${target} lost entries: rebuilding it by re-executing blocks 1..${target}`);
      const rebuild = await rebuildState(db, target, {
        ...network,
        onBlock: (n) => n % PROGRESS_EVERY === 0 && out.progress(`re-executed blocks 1..${n}`),
      });
      if (rebuild.failure) {
        out.line(`block ${rebuild.failure.number}: ${rebuild.failure.problem}`);
        if (rebuild.rebuiltThrough < 0)
          throw new Error("the genesis state cannot be rebuilt: remove the database and start again");
        target = rebuild.rebuiltThrough;
        await rewindChain(db, target);
        out.line(`rewound the head to block ${target}`);
      }
      out.line(`rebuilt the state of blocks 0..${target}`);
      if (rebuild.editDropped) {
        out.line(
          `block ${target}'s state had been edited by a dev control, which no rebuild can recreate: it reads its own state again`,
        );
      }
    } else {
      out.line(`the chain and the state at block ${target} are whole`);
    }
    await dropWrongFlatState(db, out);
    await writeRecord(dataDir, await recordOf(db, chainspec, target), true);
    out.line(
      `recorded block ${target} as the head in ${RECORD_FILE}; the node can start (with peers it syncs the rest again)`,
    );
    return target;
  } finally {
    await db.close();
  }
}

/** The data directory's record for the canonical block `head`. */
async function recordOf(db: LevelStore, chainspec: Chainspec, head: number): Promise<DataDirRecord> {
  const hash = await db.get(Bucket.canonicalHash, numberKey(head));
  const genesis = await db.get(Bucket.canonicalHash, numberKey(0));
  if (!hash || !genesis) throw new Error("the canonical index lost its entries while repairing");
  return {
    format: 1,
    network: chainspec.params.name,
    chainId: chainspec.params.chainId,
    genesis: bytesToPrefixedHex(genesis),
    head: {number: head, hash: bytesToPrefixedHex(hash)},
  };
}

/** Opens the database, after LevelDB's repair when it cannot be opened as it is. */
async function openOrRepair(dataDir: string, out: ToolOutput): Promise<LevelStore> {
  const path = databaseDir(dataDir);
  try {
    return await LevelStore.open(path, {create: false});
  } catch (e) {
    if (e instanceof DatabaseError && e.code === DatabaseErrorCode.LOCKED) throw dataDirInUse(dataDir, "repair");
    const repairable =
      e instanceof DatabaseError && (e.code === DatabaseErrorCode.CORRUPTED || e.code === DatabaseErrorCode.MISSING);
    if (!repairable) throw e;
    out.line(`${(e as Error).message}: running LevelDB's repair (it rebuilds the manifest from the tables and logs)`);
  }
  await LevelStore.repair(path);
  return LevelStore.open(path, {create: false});
}
