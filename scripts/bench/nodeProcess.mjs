// An xchain node as a child process for the benchmarks that need their own data directory
// (sync.mjs, trace.mjs): the built CLI, ready once its "JSON-RPC ready" line gives its endpoints.
import {spawn} from "node:child_process";
import {join} from "node:path";

const XCHAIN_BIN = join(import.meta.dirname, "..", "..", "packages", "node", "bin", "xchain.js");

/**
 * Starts `xchain start` with `args` and resolves once its "JSON-RPC ready" line (logged at info; the
 * node writes JSON lines to a pipe) gives its endpoints. `onLog` sees every JSON log line; `bin` is another
 * checkout's CLI (compare.mjs).
 */
export function startNode(name, args, {nodeFlags = [], onLog = () => {}, bin = XCHAIN_BIN} = {}) {
  const child = spawn(process.execPath, [...nodeFlags, bin, "start", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const node = {name, child, exited, stderr: () => stderr};
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} was not ready within 60 s: ${stderr}`)), 60_000);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}) before it was ready: ${stderr}`));
    });
    let pending = "";
    child.stdout.on("data", (chunk) => {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop();
      for (const line of lines) {
        let entry;
        try {
          entry = JSON.parse(line);
        } catch {
          continue;
        }
        onLog(entry);
        if (typeof entry.http === "string" && typeof entry.ws === "string" && node.http === undefined) {
          clearTimeout(timer);
          Object.assign(node, {http: entry.http, ws: entry.ws, p2p: entry.p2p ?? [], readyAt: performance.now()});
          resolve(node);
        }
      }
    });
  });
}

/** The flags of a node alone on loopback: `dataDir`, no p2p, free RPC ports, info logs (the ready line is info). */
export const localNodeArgs = (dataDir) => [
  ...["--datadir", dataDir, "--p2p.enabled", "false", "--log.level", "info"],
  ...["--rpc.http.port", "0", "--rpc.ws.port", "0"],
];

/** SIGTERM, then SIGKILL after 20 s. */
export async function stopNode(node) {
  if (node.child.exitCode !== null || node.child.signalCode !== null) return;
  node.child.kill("SIGTERM");
  const timer = setTimeout(() => node.child.kill("SIGKILL"), 20_000);
  await node.exited;
  clearTimeout(timer);
}
