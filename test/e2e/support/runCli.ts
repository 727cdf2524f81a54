/** Runs one `xchain` command (the built bin) to completion and returns its exit code and output. */
import {execFile, spawn} from "node:child_process";
import {promisify} from "node:util";
import {XCHAIN_BIN} from "./xchainProcess.ts";

const run = promisify(execFile);

/** What a finished command printed and how it exited. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `xchain ...args`, resolving (not rejecting) on a non-zero exit. */
export async function runCli(...args: string[]): Promise<CliResult> {
  try {
    const {stdout, stderr} = await run(process.execPath, [XCHAIN_BIN, ...args]);
    return {code: 0, stdout, stderr};
  } catch (e) {
    const err = e as CliResult;
    return {code: err.code, stdout: err.stdout, stderr: err.stderr};
  }
}

/** `xchain ...args` with `input` written to its stdin. */
export function runCliWithInput(input: string, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [XCHAIN_BIN, ...args], {stdio: ["pipe", "pipe", "pipe"]});
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString("utf8");
    });
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({code: code ?? -1, stdout, stderr}));
    child.stdin.end(input);
  });
}
