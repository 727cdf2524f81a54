// Runs the real `xchain` CLI (the built bin) as a child process: a node on ephemeral loopback
// ports, found by the "JSON-RPC ready" line it logs, or a command run to completion.
import {type ChildProcess, spawn} from "node:child_process";
import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {freePortFlags} from "@xchain/test-utils";

/** The built CLI. */
export const XCHAIN_BIN = join(import.meta.dirname, "..", "..", "..", "packages", "node", "bin", "xchain.js");

/** How a process ended and what it wrote. */
export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A node started by `startNode`. */
export interface RunningNode {
  process: ChildProcess;
  dataDir: string;
  httpUrl: string;
  wsUrl: string;
  /** The p2p listen multiaddrs (with `/p2p/<peer id>`); empty with p2p off. */
  p2pAddresses: string[];
  /** The JSON log lines written so far (stdout is JSON when not a terminal). */
  logs: Record<string, unknown>[];
  /** What the process wrote to stderr so far (Node's own messages, e.g. its inspector's address). */
  stderr(): string;
  /** Sends `signal` (default SIGTERM) and resolves when the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

/** A fresh data directory. */
export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), "xchain-node-"));
}

/**
 * Starts `xchain start` on regtest with free ports (unless `args` say otherwise) and waits until RPC
 * is ready; `nodeFlags` go to Node itself (e.g. `--inspect=127.0.0.1:0`), `env` is the process's environment.
 */
export function startNode(
  args: string[] = [],
  dataDir = tempDataDir(),
  nodeFlags: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningNode> {
  const child = spawn(process.execPath, [...nodeFlags, XCHAIN_BIN, "start", ...freePortFlags(dataDir), ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env,
  });
  const exit = collectExit(child);
  const logs: Record<string, unknown>[] = [];
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the node was not ready within 20 s")), 20_000);
    let pending = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const entry = parseJson(line);
        if (!entry) continue;
        logs.push(entry);
        if (typeof entry.http === "string" && typeof entry.ws === "string") {
          clearTimeout(timer);
          resolve({
            process: child,
            dataDir,
            httpUrl: entry.http,
            wsUrl: entry.ws,
            p2pAddresses: Array.isArray(entry.p2p) ? (entry.p2p as string[]) : [],
            logs,
            stderr: () => stderr,
            stop: (signal = "SIGTERM") => {
              child.kill(signal);
              return exit;
            },
          });
        }
      }
    });
    exit.then((e) => {
      clearTimeout(timer);
      reject(new Error(`the node exited (${e.code ?? e.signal}) before it was ready:\n${e.stderr}${e.stdout}`));
    });
  });
}

/** Runs the CLI with `args` to completion (for commands expected to end, e.g. a refused start). */
export function runXchain(args: string[], timeoutMs = 20_000): Promise<Exit> {
  const child = spawn(process.execPath, [XCHAIN_BIN, ...args], {stdio: ["ignore", "pipe", "pipe"]});
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return collectExit(child).finally(() => clearTimeout(timer));
}

/** `xchain start` with `args` on free ports and without p2p, expected to end (a refused start). */
export function refusedStart(args: string[]): Promise<Exit> {
  return runXchain([
    "start",
    "--datadir",
    tempDataDir(),
    "--rpc.http.port",
    "0",
    "--rpc.ws.port",
    "0",
    "--p2p.enabled",
    "false",
    ...args,
  ]);
}

function collectExit(child: ChildProcess): Promise<Exit> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve) => {
    child.on("close", (code, signal) => resolve({code, signal, stdout, stderr}));
  });
}

function parseJson(line: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
