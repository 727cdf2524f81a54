/**
 * The state file of `verify-headers --rpc --state FILE` (docs/operations.md §9): one small JSON object,
 * replaced atomically after every batch, so that `--resume` continues after the last block verified. It
 * records the run's network and range (a resume must ask for the same), the next block to verify, the hash
 * of the block before it (checked against the node on resume: a reorganised chain is not silently mixed in)
 * and the counts so far.
 */
import {readFile} from "node:fs/promises";
import {NodeError, writeFileAtomically} from "@xchain/utils";

/** What a run has done so far. */
export interface VerifyState {
  version: 1;
  network: string;
  from: number;
  to: number;
  /** The first block not yet verified (`to + 1` once the run is complete). */
  next: number;
  /** The hash the node gave for block `next - 1`; null before the first block. */
  previousHash: string | null;
  valid: number;
  invalid: number;
  /** Valid blocks whose fork-detection data could not be compared (an ancestor outside the range). */
  forkDetectionUnchecked: number;
}

export enum VerifyStateErrorCode {
  /** The state file exists but `--resume` was not given. */
  EXISTS = "VERIFY_STATE_EXISTS",
  /** `--resume` was given but there is no state file. */
  MISSING = "VERIFY_STATE_MISSING",
  /** The file is not a state file this version wrote. */
  MALFORMED = "VERIFY_STATE_MALFORMED",
  /** The file records another network or range than the command asks for. */
  OTHER_RUN = "VERIFY_STATE_OTHER_RUN",
  /** The node's block before the resume point is not the one the earlier run verified. */
  CHAIN_CHANGED = "VERIFY_STATE_CHAIN_CHANGED",
}

export type VerifyStateErrorType =
  | {code: VerifyStateErrorCode.EXISTS; path: string}
  | {code: VerifyStateErrorCode.MISSING; path: string}
  | {code: VerifyStateErrorCode.MALFORMED; path: string; reason: string}
  | {code: VerifyStateErrorCode.OTHER_RUN; path: string; recorded: string; asked: string}
  | {code: VerifyStateErrorCode.CHAIN_CHANGED; path: string; number: number; recorded: string; actual: string};

/** A state file that cannot be used as asked; the message says what to do. */
export class VerifyStateError extends NodeError<VerifyStateErrorType> {}

/** The run a state file must belong to. */
export interface VerifyRun {
  network: string;
  from: number;
  to: number;
}

/** Reads the state of an earlier run of `run` from `path`. */
export async function readVerifyState(path: string, run: VerifyRun): Promise<VerifyState> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    throw new VerifyStateError(
      {code: VerifyStateErrorCode.MISSING, path},
      `${path}: no state file to resume from (run once without --resume to create it)`,
    );
  }
  const state = parseState(text, path);
  const recorded = describeRun(state);
  const asked = describeRun(run);
  if (recorded !== asked) {
    throw new VerifyStateError(
      {code: VerifyStateErrorCode.OTHER_RUN, path, recorded, asked},
      `${path} records ${recorded}, not ${asked}: resume with the same --network, --from and --to, or use another --state file`,
    );
  }
  return state;
}

/** Refuses to start a fresh run over an earlier run's state file. */
export async function assertNoVerifyState(path: string): Promise<void> {
  try {
    await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
    throw e;
  }
  throw new VerifyStateError(
    {code: VerifyStateErrorCode.EXISTS, path},
    `${path} exists: pass --resume to continue that run, or remove the file to start again`,
  );
}

/** Replaces the state file (atomically: a crash leaves the old state or the new one). */
export async function writeVerifyState(path: string, state: VerifyState): Promise<void> {
  await writeFileAtomically(path, new TextEncoder().encode(`${JSON.stringify(state, null, 1)}\n`), 0o644);
}

function describeRun(run: VerifyRun): string {
  return `${run.network} blocks ${run.from} to ${run.to}`;
}

function parseState(text: string, path: string): VerifyState {
  const malformed = (reason: string): never => {
    throw new VerifyStateError(
      {code: VerifyStateErrorCode.MALFORMED, path, reason},
      `${path} is not a verify-headers state file (${reason})`,
    );
  };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return malformed((e as Error).message);
  }
  const state = value as Partial<VerifyState> | null;
  if (typeof state !== "object" || state === null || state.version !== 1) return malformed("no version 1");
  for (const key of ["from", "to", "next", "valid", "invalid", "forkDetectionUnchecked"] as const) {
    if (!Number.isSafeInteger(state[key]) || (state[key] as number) < 0) malformed(`${key} is not a count`);
  }
  if (typeof state.network !== "string") malformed("network is not a name");
  if (state.previousHash !== null && typeof state.previousHash !== "string") malformed("previousHash is not a hash");
  return state as VerifyState;
}
