/**
 * `xchain db import FILE` (docs/operations.md §5): the blocks of a block file (blockFile.ts) into a
 * stopped node's data directory, fresh or behind, through the chain's own import, as sync imports a
 * peer's blocks: each block decoded, validated, executed on its parent's state, compared with its
 * header and written in one batch. Blocks already stored are skipped, so an interrupted import is
 * resumed by running it again; the first block the chain refuses stops it, naming the block.
 */
import {decodeForImport, ImportResultKind, recoverAhead, SenderRecovery, transactionsOfBlock} from "@xchain/chain";
import type {Chainspec} from "@xchain/chainspec";
import type {Block} from "@xchain/primitives";
import {bytesToPrefixedHex, equalBytes} from "@xchain/utils";
import {DbToolError, DbToolErrorCode, NodeStartError, NodeStartErrorCode} from "../errors.ts";
import {isForkMode} from "../fork/forkOptions.ts";
import type {Logger} from "../logger.ts";
import type {NodeOptions} from "../options.ts";
import {type Progress, ProgressLine} from "../verify/progressLine.ts";
import {openChain} from "../wiring/chain.ts";
import {type Closers, closeAll} from "../wiring/closers.ts";
import {openStorage} from "../wiring/storage.ts";
import {type FileBlock, fileBytes, fileLabel, readBlocks} from "./blockFile.ts";
import type {ToolOutput} from "./dbTools.ts";
import {dataDirInUse} from "./stoppedDatabase.ts";

/** Blocks of the file whose senders are recovered while the block before them imports. */
const IMPORT_LOOKAHEAD = 8;

/** What an import did. */
export interface ImportSummary {
  imported: number;
  /** Blocks the database already held (a resumed import, or the genesis). */
  known: number;
  head: {number: number; hash: string};
}

/** Imports `file` (`-`: stdin) into the data directory of `options`, opened as `xchain start` opens it. */
export async function importChain(
  options: NodeOptions,
  file: string,
  out: ToolOutput,
  logger: Logger,
): Promise<ImportSummary> {
  if (isForkMode(options)) {
    throw new DbToolError(
      {code: DbToolErrorCode.FORKED_CHAIN, dataDir: options.dataDir, fork: "fork.url"},
      "xchain db import does not import into a forked chain (fork.url is set)",
    );
  }
  const closers: Closers = [];
  try {
    const storage = await openStorage(options, logger, closers).catch((e) => {
      if (e instanceof NodeStartError && e.code === NodeStartErrorCode.DATADIR_IN_USE) {
        throw dataDirInUse(options.dataDir, "import");
      }
      throw e;
    });
    const {chain} = await openChain(options, storage, logger, closers);
    const recovery = new SenderRecovery();
    closers.push({name: "sender recovery", close: () => recovery.close()});
    const label = fileLabel(file);
    let imported = 0;
    let known = 0;
    let last: {number: number; hash: Uint8Array} | undefined;
    const progress = new ProgressLine(out.progress);
    const describe = ({perSecond}: Progress) =>
      `import: block ${chain.head().number}, ${imported} imported, ${known} already known, ${perSecond} blocks/s`;
    // Each block decoded ahead, its senders recovered on another core while the blocks before it import.
    const decoded = decodeBlocks(readBlocks(fileBytes(file), file), storage.chainspec);
    const ahead = recoverAhead(decoded, recovery, {
      lookahead: IMPORT_LOOKAHEAD,
      transactionsOf: (block) => transactionsOfBlock(block.decoded),
    });
    for await (const block of ahead) {
      const result = await chain.importBlock(block.decoded);
      switch (result.kind) {
        case ImportResultKind.IMPORTED_BEST:
        case ImportResultKind.IMPORTED_NOT_BEST:
          imported++;
          last = result;
          break;
        case ImportResultKind.EXIST:
          known++;
          last = result;
          break;
        case ImportResultKind.NO_PARENT: {
          const hash = bytesToPrefixedHex(result.hash);
          if (result.number === 0 && !equalBytes(result.hash, chain.genesisHash)) {
            const expected = bytesToPrefixedHex(chain.genesisHash);
            throw new DbToolError(
              {code: DbToolErrorCode.OTHER_GENESIS, file: label, genesis: hash, expected},
              `${label} holds the chain of genesis ${hash}, not ${options.network}'s ${expected}: import it with ` +
                "the --network (and --genesis-file) it was exported from",
            );
          }
          const parentHash = bytesToPrefixedHex(result.parentHash);
          throw new DbToolError(
            {code: DbToolErrorCode.MISSING_PARENT, file: label, number: result.number, hash, parentHash},
            `block ${result.number} (${hash}), block ${block.index} of ${label}: its parent ${parentHash} is ` +
              `neither in the database (head: block ${chain.head().number}) nor earlier in the file; export from a ` +
              `block at or below ${chain.head().number + 1}`,
          );
        }
        case ImportResultKind.INVALID_BLOCK: {
          const {number, error} = result;
          const hash = result.hash && bytesToPrefixedHex(result.hash);
          const which =
            number === undefined
              ? `block ${block.index} of ${label} (at byte ${block.offset}) is not a block`
              : `block ${number} (${hash}), block ${block.index} of ${label}, is invalid`;
          throw new DbToolError(
            {code: DbToolErrorCode.INVALID_BLOCK, file: label, index: block.index, number, hash, reason: error.message},
            `${which}: ${error.code}: ${error.message}. Nothing of it was stored; the chain stays at block ` +
              `${chain.head().number} (${imported} block(s) of the file imported)`,
          );
        }
        case ImportResultKind.PARENT_STATE_PRUNED: {
          const {number} = result;
          const hash = bytesToPrefixedHex(result.hash);
          const oldestBlock = chain.oldestStateBlock();
          throw new DbToolError(
            {code: DbToolErrorCode.PARENT_STATE_PRUNED, file: label, index: block.index, number, hash, oldestBlock},
            `block ${number} (${hash}), block ${block.index} of ${label}: the file's chain forks from the ` +
              `database's below the states it keeps (the state after block ${number - 1} was pruned; the oldest ` +
              `served is block ${oldestBlock}), so the block cannot be executed. Nothing of it was stored; the ` +
              `chain stays at block ${chain.head().number}. Import the file into a fresh data directory, or ` +
              "one that has always run with state.mode = archive (docs/operations.md §12)",
          );
        }
      }
      progress.tick(describe);
    }
    if (!last) {
      throw new DbToolError(
        {code: DbToolErrorCode.BAD_BLOCK_FILE, file: label, offset: 0, reason: "empty"},
        `${label} holds no block`,
      );
    }
    progress.done(describe);
    const head = {number: chain.head().number, hash: bytesToPrefixedHex(chain.head().hash)};
    out.line(`imported ${imported} block(s), ${known} already known; head: block ${head.number} ${head.hash}`);
    if (!equalBytes(last.hash, chain.head().hash)) {
      out.line(
        `the file's last block ${last.number} (${bytesToPrefixedHex(last.hash)}) is stored but is not the head: ` +
          "the chain the database already held is heavier",
      );
    }
    return {imported, known, head};
  } finally {
    // The database is closed last, after the data directory's record of the head (database.json) is written.
    await closeAll(closers, logger);
  }
}

/** Each block of the file with its decoding (`decodeForImport`: its bytes when they are no block). */
async function* decodeBlocks(
  blocks: AsyncIterable<FileBlock>,
  chainspec: Chainspec,
): AsyncGenerator<FileBlock & {decoded: Block | Uint8Array}> {
  for await (const block of blocks) yield {...block, decoded: decodeForImport(block.bytes, chainspec)};
}
