/**
 * `xchain db export FILE` (docs/operations.md §5): the canonical blocks of a stopped node, in the
 * block file format (blockFile.ts), with progress on stderr.
 */
import {canonicalBlocks, summarizeChainStore} from "@xchain/chain";
import type {Chainspec} from "@xchain/chainspec";
import {DbToolError, DbToolErrorCode} from "../errors.ts";
import {type Progress, ProgressLine} from "../verify/progressLine.ts";
import {writeBlockFile} from "./blockFile.ts";
import type {ToolOutput} from "./dbTools.ts";
import {checkNetwork, openStoppedDatabase} from "./stoppedDatabase.ts";

/** What to export: blocks `from` (default 0) to `to` (default the head) to `file` (`-`: stdout). */
export interface ExportRequest {
  file: string;
  from?: number;
  to?: number;
}

/** What was written. */
export interface ExportSummary {
  from: number;
  to: number;
  bytes: number;
}

/** Writes the canonical blocks of `dataDir`'s database to the file; every line goes to `out.progress` (stderr). */
export async function exportChain(
  dataDir: string,
  chainspec: Chainspec,
  request: ExportRequest,
  out: ToolOutput,
): Promise<ExportSummary> {
  const db = await openStoppedDatabase(dataDir, "export");
  try {
    const summary = await summarizeChainStore(db, chainspec);
    checkNetwork(dataDir, chainspec, summary.chainId);
    if (summary.fork) {
      throw new DbToolError(
        {code: DbToolErrorCode.FORKED_CHAIN, dataDir, fork: summary.fork},
        `the data directory ${dataDir} holds a fork of ${summary.fork}: a forked chain is not exported ` +
          "(its blocks execute on the upstream's state, which another node does not hold)",
      );
    }
    const head = summary.head?.number ?? -1;
    const from = request.from ?? 0;
    const to = request.to ?? head;
    if (from > to || to > head) {
      throw new DbToolError(
        {code: DbToolErrorCode.BAD_RANGE, from, to, head},
        `cannot export blocks ${from}..${to}: the chain in ${dataDir} holds blocks 0..${head}`,
      );
    }
    const progress = new ProgressLine(out.progress);
    let bytes = 0;
    let last = from - 1;
    const describe = ({count, perSecond}: Progress) =>
      `export: block ${last}, ${count}/${to - from + 1} blocks, ${bytes} bytes, ${perSecond} blocks/s`;
    async function* encodings(): AsyncGenerator<Uint8Array> {
      for await (const block of canonicalBlocks(db, chainspec, {from, to})) {
        bytes += block.encoding.length;
        last = block.number;
        progress.tick(describe);
        yield block.encoding;
      }
    }
    await writeBlockFile(request.file, encodings());
    progress.done(describe);
    out.progress(
      `exported blocks ${from}..${to} (${bytes} bytes) to ${request.file === "-" ? "stdout" : request.file}`,
    );
    return {from, to, bytes};
  } finally {
    await db.close();
  }
}
