/**
 * `xchain start --dev.ephemeral`: a fresh regtest chain in a temporary data directory, removed
 * when the process exits (after a clean stop, a second signal or a failed start alike), as anvil
 * starts clean on every run.
 */
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {Option} from "commander";
import {ConfigError, ConfigErrorCode} from "../config/errors.ts";
import {defaultDataDir, type NodeOptions} from "../options.ts";
import {DEV_FLAGS_GROUP} from "./configFlags.ts";

/** The flag; a command-line switch only, since a file naming a data directory would contradict it. */
export const EPHEMERAL_FLAG = new Option(
  "--dev.ephemeral",
  "a fresh chain in a temporary data directory, removed at exit (regtest only; not with --datadir)",
).helpGroup(DEV_FLAGS_GROUP);

/** `options` with a new temporary data directory that is removed at exit; refused off regtest or beside a data directory. */
export function withEphemeralDataDir(options: NodeOptions): NodeOptions {
  if (options.network !== "regtest") {
    throw new ConfigError({
      code: ConfigErrorCode.CONFLICT,
      key: "dev.ephemeral",
      reason: `a throw-away chain is for regtest only (network is ${options.network})`,
    });
  }
  if (options.dataDir !== defaultDataDir(options.fork.url === undefined ? "regtest" : "fork")) {
    throw new ConfigError({
      code: ConfigErrorCode.CONFLICT,
      key: "dev.ephemeral",
      reason: `the chain lives in a temporary directory, so a data directory (${options.dataDir}) cannot be given too`,
    });
  }
  const dataDir = mkdtempSync(join(tmpdir(), "xchain-ephemeral-"));
  // "exit" runs on every way out, process.exit included; its handlers must be synchronous.
  process.once("exit", () => rmSync(dataDir, {recursive: true, force: true}));
  return {...options, dataDir};
}
