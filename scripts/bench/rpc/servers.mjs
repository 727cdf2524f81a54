// The servers the RPC benchmark compares, each a child process on loopback: an xchain regtest node
// (the built CLI, fresh data directory), anvil (on the PATH, or @foundry-rs/anvil installed by this
// script into a cache directory outside the repository on first use, never by npm ci) and the
// platform's floor (floor.mjs). Each gives its `pid` for the CPU figures.
import {execFileSync, spawn} from "node:child_process";
import {existsSync, mkdirSync, mkdtempSync} from "node:fs";
import net from "node:net";
import {homedir, tmpdir} from "node:os";
import {join} from "node:path";
import {setTimeout as sleep} from "node:timers/promises";
import {call, keepAliveAgent} from "./loadGenerator.mjs";

const ANVIL_PACKAGE = "@foundry-rs/anvil@1.7.1";
const XCHAIN_BIN = join(import.meta.dirname, "..", "..", "..", "packages", "node", "bin", "xchain.js");

/** A free TCP port on loopback. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const {port} = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The anvil binary: `anvil` on the PATH, else the cached one, installed with `npm install --prefix <cache>` when missing. */
export function anvilBinary() {
  try {
    return execFileSync("which", ["anvil"]).toString().trim();
  } catch {
    // Not on the PATH: the cached package.
  }
  const cache =
    process.env.XCHAIN_BENCH_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "xchain-bench");
  const prefix = join(cache, "anvil-1.7.1");
  const binary = join(prefix, "node_modules", ".bin", "anvil");
  if (!existsSync(binary)) {
    mkdirSync(prefix, {recursive: true});
    process.stderr.write(`installing ${ANVIL_PACKAGE} into ${prefix}\n`);
    execFileSync("npm", ["install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund", ANVIL_PACKAGE], {
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
  return binary;
}

/** Starts a server process (with `env` added to this process's) and resolves once `eth_chainId` answers; `stop()` ends it. */
export async function startServer(name, command, args, url, {env} = {}) {
  const child = spawn(command, args, {stdio: ["ignore", "ignore", "pipe"], env: {...process.env, ...env}});
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const agent = keepAliveAgent(1);
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited: ${stderr}`);
    try {
      await call(agent, url, "eth_chainId");
      agent.destroy();
      return {
        name,
        url,
        pid: child.pid,
        stop: () => new Promise((resolve) => child.once("exit", resolve).kill("SIGTERM")),
      };
    } catch {
      await sleep(100);
    }
  }
  child.kill("SIGKILL");
  throw new Error(`${name} did not answer at ${url}: ${stderr}`);
}

/**
 * An xchain regtest node with its defaults (automining, one block a second), HTTP only; `checkout`:
 * another checkout's built CLI instead of this one's (a before/after in one run).
 */
export async function startXchain(nodeFlags = [], xchainFlags = [], checkout = undefined) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "xchain-bench-rpc-"));
  const bin = checkout === undefined ? XCHAIN_BIN : join(checkout, "packages", "node", "bin", "xchain.js");
  const args = [...nodeFlags, bin, "start", "--datadir", dataDir, "--rpc.http.port", String(port)];
  // The node joins no network here, but keeps its p2p host (on a free loopback port), as it runs by default.
  args.push("--rpc.ws.enabled", "false", "--log.level", "warn", "--p2p.host", "127.0.0.1", "--p2p.port", "0");
  args.push(...xchainFlags);
  return startServer(checkout === undefined ? "xchain" : "before", process.execPath, args, `http://127.0.0.1:${port}`);
}

/**
 * anvil with chain id 33 and a block a second (its automine stalls under a burst of transactions);
 * with `automine`, its default mode instead: a block per transaction and per `evm_mine` (devLoop.mjs).
 */
export async function startAnvil({automine = false} = {}) {
  const port = await freePort();
  const args = ["--host", "127.0.0.1", "--port", String(port), "--chain-id", "33", "--silent"];
  if (!automine) args.push("--block-time", "1");
  return startServer("anvil", anvilBinary(), args, `http://127.0.0.1:${port}`);
}

/** The platform's floor: a minimal `node:http` JSON server (floor.mjs) with the same Node. */
export async function startFloor() {
  const port = await freePort();
  const script = join(import.meta.dirname, "floor.mjs");
  return startServer("node:http floor", process.execPath, [script, String(port)], `http://127.0.0.1:${port}`);
}
