/**
 * Creating a directory and its missing parents, without Node's `mkdir({recursive: true})`: that
 * walk retries a parent for as long as the child answers ENOENT, and a parent that exists but
 * refuses new entries that way (`/proc`, a dangling symlink) makes it spin at 100 % CPU forever
 * (`--datadir /proc/nope`). Here each missing component is created once, top down, so the work is
 * bounded by the path's depth and every failure names the component and why.
 */
import {constants} from "node:fs";
import {access, mkdir, stat} from "node:fs/promises";
import {dirname, resolve} from "node:path";
import {NodeError} from "./errors.ts";

/** Why a directory cannot be used. */
export enum DirectoryErrorCode {
  /** The path, or one of its parents, exists and is not a directory. */
  NOT_A_DIRECTORY = "DIRECTORY_NOT_A_DIRECTORY",
  /** A missing component could not be created (or a parent could not be read). */
  UNCREATABLE = "DIRECTORY_UNCREATABLE",
  /** The directory exists but this process cannot create files in it. */
  NOT_WRITABLE = "DIRECTORY_NOT_WRITABLE",
}

/** `path` is the directory asked for; `at` the component that failed; `reason` the system's answer. */
export type DirectoryErrorType =
  | {code: DirectoryErrorCode.NOT_A_DIRECTORY; path: string; at: string}
  | {code: DirectoryErrorCode.UNCREATABLE; path: string; at: string; reason: string}
  | {code: DirectoryErrorCode.NOT_WRITABLE; path: string; reason: string};

/** A directory that cannot be created or written. */
export class DirectoryError extends NodeError<DirectoryErrorType> {
  constructor(type: DirectoryErrorType) {
    super(type, describe(type));
  }
}

function describe(t: DirectoryErrorType): string {
  switch (t.code) {
    case DirectoryErrorCode.NOT_A_DIRECTORY:
      return t.at === t.path
        ? `${t.path} is a file, not a directory`
        : `${t.at} (in ${t.path}) is a file, not a directory`;
    case DirectoryErrorCode.UNCREATABLE:
      return `cannot create ${t.at}${t.at === t.path ? "" : ` (for ${t.path})`}: ${t.reason}`;
    case DirectoryErrorCode.NOT_WRITABLE:
      return `${t.path} is not writable: ${t.reason}`;
  }
}

type Kind = "directory" | "other" | "missing";

async function kindOf(path: string, asked: string): Promise<Kind> {
  try {
    return (await stat(path)).isDirectory() ? "directory" : "other";
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // ENOTDIR: a parent is a file; going up finds it and names it.
    if (code === "ENOENT" || code === "ENOTDIR") return "missing";
    throw new DirectoryError({code: DirectoryErrorCode.UNCREATABLE, path: asked, at: path, reason: reasonOf(e)});
  }
}

function reasonOf(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err.code ? `${err.code} (${err.message.replace(/^[A-Z]+: /, "")})` : String(e);
}

/**
 * Creates `path` and its missing parents (each with `mode`, default 0777 less the umask) and checks
 * that the directory is writable; throws `DirectoryError` naming the component that failed.
 */
export async function makeDirectory(path: string, mode?: number): Promise<void> {
  const target = resolve(path);
  const missing: string[] = [];
  // Up from the target to the nearest existing component: one step per path component.
  for (let current = target; ; current = dirname(current)) {
    const kind = await kindOf(current, target);
    if (kind === "directory") break;
    if (kind === "other")
      throw new DirectoryError({code: DirectoryErrorCode.NOT_A_DIRECTORY, path: target, at: current});
    missing.push(current);
    // The root always exists; a missing one (a bad drive letter) cannot be created.
    if (dirname(current) === current) break;
  }
  for (const dir of missing.reverse()) {
    try {
      await mkdir(dir, mode === undefined ? undefined : {mode});
    } catch (e) {
      // Created meanwhile by another process: as good as created here.
      if ((e as NodeJS.ErrnoException).code === "EEXIST" && (await kindOf(dir, target)) === "directory") continue;
      const reason =
        (e as NodeJS.ErrnoException).code === "ENOENT"
          ? `its parent ${dirname(dir)} exists but does not accept new directories (ENOENT: a virtual file system such as /proc, or a dangling symlink)`
          : reasonOf(e);
      throw new DirectoryError({code: DirectoryErrorCode.UNCREATABLE, path: target, at: dir, reason});
    }
  }
  try {
    await access(target, constants.W_OK | constants.X_OK);
  } catch (e) {
    throw new DirectoryError({code: DirectoryErrorCode.NOT_WRITABLE, path: target, reason: reasonOf(e)});
  }
}
