/**
 * `xchain verify-headers --rpc URL --from N --to M` (docs/operations.md §9): fetches the blocks from a node,
 * rebuilds each header from its JSON (headerFromBlockJson) and verifies the sequence as the file mode does
 * (HeaderFileVerifier). A block whose JSON does not give its header is an invalid block; a block the node
 * does not have ends the run. With a state file, progress is saved after every batch and `--resume`
 * continues after the last block verified: it first re-fetches and re-verifies, silently, the ancestors the
 * next block's rules read (its parent, and the 449 before it for fork-detection data), so that a resumed run
 * reports exactly what an uninterrupted one would.
 */

import {BlockJsonError, BlockJsonErrorCode, headerFromBlockJson} from "@xchain/chain";
import type {Chainspec} from "@xchain/chainspec";
import {FORK_DETECTION_ANCESTORS} from "@xchain/consensus";
import {bytesToPrefixedHex} from "@xchain/utils";
import {HeaderFileVerifier, type HeaderVerdict} from "./headerFileVerifier.ts";
import {type Progress, ProgressLine} from "./progressLine.ts";
import {type FetchedBlock, RpcBlockFetcher, type VerifyRpcOptions} from "./rpcBlockFetcher.ts";
import {
  assertNoVerifyState,
  readVerifyState,
  type VerifyState,
  VerifyStateError,
  VerifyStateErrorCode,
  writeVerifyState,
} from "./verifyStateFile.ts";

/** What one `--rpc` run verifies, where it reports, and how it keeps its state. */
export interface VerifyFromRpcRun {
  url: string;
  network: string;
  chainspec: Chainspec;
  from: number;
  to: number;
  rpc: VerifyRpcOptions;
  /** The state file, if any; with `resume`, the run continues the one it records. */
  stateFile?: string;
  resume: boolean;
  /** One line per invalid block and the summary (stdout). */
  write: (line: string) => void;
  /** Progress lines (stderr). */
  progress: (line: string) => void;
  nowSeconds: number;
}

/** Runs the verification; resolves to the final counts (also in the state file, when there is one). */
export async function verifyFromRpc(run: VerifyFromRpcRun): Promise<VerifyState> {
  const state = await startingState(run);
  const verifier = new HeaderFileVerifier(run.chainspec, run.nowSeconds);
  const fetcher = new RpcBlockFetcher(run.url, run.rpc);
  if (run.resume && state.next > run.from) await replayAncestors(run, state, verifier, fetcher);
  const total = run.to - state.next + 1;
  const progress = new ProgressLine(run.progress);
  const describe =
    (number: number, invalid: number) =>
    ({count, perSecond}: Progress) =>
      `verify-headers: block ${number}, ${count}/${total} (${Math.floor((count * 100) / total)}%), ${perSecond} blocks/s, ${invalid} invalid`;
  let sinceSave = 0;
  try {
    for await (const block of fetcher.blocks(state.next, run.to)) {
      const verdict = verifyBlock(block, verifier, run.chainspec);
      if (verdict.valid) {
        state.valid++;
        if (verdict.forkDetection.checked === false && verdict.forkDetection.reason === "ancestor-missing") {
          state.forkDetectionUnchecked++;
        }
      } else {
        state.invalid++;
        run.write(formatInvalid(block, verdict));
      }
      state.next = block.number + 1;
      state.previousHash = jsonHash(block.json);
      progress.tick(describe(block.number, state.invalid));
      if (run.stateFile && ++sinceSave >= run.rpc.batchSize) {
        sinceSave = 0;
        await writeVerifyState(run.stateFile, state);
      }
    }
  } finally {
    if (run.stateFile) await writeVerifyState(run.stateFile, state);
    progress.done(describe(state.next - 1, state.invalid));
  }
  if (state.forkDetectionUnchecked > 0) run.write(forkDetectionNote(state.forkDetectionUnchecked, run.from));
  run.write(`${state.valid} valid, ${state.invalid} invalid`);
  return state;
}

/** The summary's line on the valid blocks whose fork-detection data could not be compared. */
export function forkDetectionNote(count: number, firstNumber: number | string): string {
  return (
    `fork-detection data not checked on ${count} valid block${count === 1 ? "" : "s"}: ` +
    `the ${FORK_DETECTION_ANCESTORS} ancestors it is computed from are not all in the input ` +
    `(it starts at ${firstNumber}; start ${FORK_DETECTION_ANCESTORS} blocks earlier to check every block)`
  );
}

async function startingState(run: VerifyFromRpcRun): Promise<VerifyState> {
  const fresh: VerifyState = {
    version: 1,
    network: run.network,
    from: run.from,
    to: run.to,
    next: run.from,
    previousHash: null,
    valid: 0,
    invalid: 0,
    forkDetectionUnchecked: 0,
  };
  if (!run.stateFile) return fresh;
  if (!run.resume) {
    await assertNoVerifyState(run.stateFile);
    return fresh;
  }
  return readVerifyState(run.stateFile, run);
}

/**
 * Re-verifies the blocks before `state.next` that its rules read, without counting them, and checks that the
 * node's block `next - 1` is the one the earlier run verified.
 */
async function replayAncestors(
  run: VerifyFromRpcRun,
  state: VerifyState,
  verifier: HeaderFileVerifier,
  fetcher: RpcBlockFetcher,
): Promise<void> {
  const first = Math.max(run.from, state.next - FORK_DETECTION_ANCESTORS);
  let last: FetchedBlock | undefined;
  for await (const block of fetcher.blocks(first, state.next - 1)) {
    verifyBlock(block, verifier, run.chainspec);
    last = block;
  }
  const actual = last ? jsonHash(last.json) : null;
  if (state.previousHash !== null && actual !== state.previousHash) {
    const number = state.next - 1;
    throw new VerifyStateError(
      {
        code: VerifyStateErrorCode.CHAIN_CHANGED,
        path: run.stateFile as string,
        number,
        recorded: state.previousHash,
        actual: String(actual),
      },
      `block ${number} is ${actual} on ${run.url}, but the earlier run verified ${state.previousHash}: the chain ` +
        `changed (a reorganisation, or another network); remove ${run.stateFile} and start again`,
    );
  }
}

/** The verdict on one fetched block; a JSON that gives no header is an invalid block, a missing block ends the run. */
function verifyBlock(block: FetchedBlock, verifier: HeaderFileVerifier, chainspec: Chainspec): HeaderVerdict {
  try {
    return verifier.verifyHeader(headerFromBlockJson(block.json, block.number, chainspec), block.number);
  } catch (e) {
    if (!(e instanceof BlockJsonError) || e.code === BlockJsonErrorCode.NOT_AN_OBJECT) throw e;
    verifier.skip();
    return {line: block.number, valid: false, code: e.code, detail: e.detail};
  }
}

/** The block hash the JSON names, when it names one. */
function jsonHash(json: unknown): string | null {
  const hash = (json as {hash?: unknown} | null)?.hash;
  return typeof hash === "string" ? hash.toLowerCase() : null;
}

function formatInvalid(block: FetchedBlock, verdict: Extract<HeaderVerdict, {valid: false}>): string {
  const hash = verdict.header ? bytesToPrefixedHex(verdict.header.hash()) : (jsonHash(block.json) ?? "?");
  return `block ${block.number} ${hash} ${verdict.code}: ${verdict.detail}`;
}
