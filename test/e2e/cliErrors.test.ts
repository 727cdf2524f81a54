// End-to-end: the command line's errors. A usage error prints the error and one line pointing at
// --help; `start --help` groups its flags; each setting that would fail start-up halfway is
// refused before the database opens with one line naming it and exit code 2 (docs/config.md).
import {execFile, spawn} from "node:child_process";
import {existsSync, mkdtempSync, readdirSync, writeFileSync} from "node:fs";
import {createServer, type Server} from "node:net";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {freePortFlags} from "@xchain/test-utils";
import {afterEach, describe, expect, it} from "vitest";
import {runXchain, tempDataDir, XCHAIN_BIN} from "./support/xchainProcess.ts";

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A port some other process (this test) is listening on. */
async function busyPort(): Promise<number> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as {port: number}).port;
}

/** `xchain start` on a fresh data directory with `args`, expected to be refused. */
function refusedStart(...args: string[]) {
  return runXchain(["start", "--datadir", tempDataDir(), "--p2p.port", "0", ...args]);
}

describe("usage errors and help", () => {
  it("prints the error and one line pointing at --help, not the whole help", async () => {
    const r = await runXchain(["start", "--rpc.http.prot", "1"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: unknown option '--rpc.http.prot'/);
    expect(r.stderr).toMatch(/Did you mean --rpc.http.port\?/);
    expect(r.stderr.trimEnd().split("\n").at(-1)).toBe("Run 'xchain start --help' for usage.");
    expect(r.stderr).not.toMatch(/Options:/);
    const unknown = await runXchain(["strat"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Run 'xchain --help' for usage\.\n$/);
  });

  it("groups start's flags by table, with defaults and examples", async () => {
    const r = await runXchain(["start", "--help"]);
    expect(r.code).toBe(0);
    for (const heading of ["Node:", "Miner:", "JSON-RPC:", "P2P and sync:", "Development (regtest):", "Examples:"]) {
      expect(r.stdout.split("\n")).toContain(heading);
    }
    expect(r.stdout).toMatch(/--rpc\.http\.port <port> .*default: 4444/);
    // The namespace switches say once, in their heading, what unset means.
    expect(r.stdout.match(/unset, the network decides/g)).toHaveLength(1);
  });
});

describe("scripts/merge-miner.mjs --help", () => {
  it("prints the usage and exits 0", async () => {
    const script = join(import.meta.dirname, "..", "..", "scripts", "merge-miner.mjs");
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [script, "--help"], (e, out) => (e ? reject(e) : resolve(out))),
    );
    expect(stdout).toMatch(/^usage: node scripts\/merge-miner\.mjs/);
    expect(stdout).toMatch(/--interval MS/);
  });
});

describe("settings refused before the database opens", () => {
  it("the same port for HTTP and WebSocket", async () => {
    const r = await refusedStart("--rpc.http.port", "4555", "--rpc.ws.port", "4555");
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe("xchain: rpc.ws.port: 4555 is also rpc.http.port; give each listener its own port");
  });

  it("a busy RPC or p2p port", async () => {
    const port = await busyPort();
    const rpc = await refusedStart("--rpc.http.port", String(port), "--rpc.ws.port", "0");
    expect(rpc.code).toBe(2);
    expect(rpc.stderr.trim()).toBe(`xchain: rpc.http.port: ${port} is already in use (on 127.0.0.1)`);
    const p2p = await refusedStart("--rpc.http.port", "0", "--rpc.ws.port", "0", "--p2p.port", String(port));
    expect(p2p.code).toBe(2);
    expect(p2p.stderr.trim()).toBe(`xchain: p2p.port: ${port} is already in use (on 127.0.0.1)`);
  });

  it("a bootnode that is not a multiaddr with a peer id", async () => {
    const noPeer = await refusedStart("--p2p.bootnodes", "/ip4/127.0.0.1/tcp/30305");
    expect(noPeer.code).toBe(2);
    expect(noPeer.stderr).toMatch(
      /^xchain: p2p\.bootnodes: "\/ip4\/127\.0\.0\.1\/tcp\/30305" is not a bootnode multiaddr: it must end in \/p2p\/<peer id>/,
    );
    const garbage = await refusedStart("--p2p.bootnodes", "enode://abc@1.2.3.4:30303");
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).toMatch(
      /^xchain: p2p\.bootnodes: "enode:\/\/abc@1\.2\.3\.4:30303" is not a bootnode multiaddr/,
    );
  });

  it("a 100 KB bootnode string, refused by its length", async () => {
    const long = await refusedStart("--p2p.bootnodes", `/ip4/1.2.3.4/tcp/1/p2p/${"Q".repeat(100_000)}`);
    expect(long.code).toBe(2);
    expect(long.stderr.trim()).toMatch(
      /^xchain: bad value for p2p\.bootnodes \(--p2p\.bootnodes\): entry 1 ".{120}"… \(100023 characters\); expected a list of at most 64 strings of at most 512 characters each$/,
    );
  });

  it("a quoted string where the TOML file needs a port", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "xchain-toml-")), "node.config.toml");
    writeFileSync(file, '[rpc.http]\nport = "4444"\n');
    const r = await refusedStart("--config", file);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      `xchain: bad value for rpc.http.port (${file}): "4444"; expected an integer in 0..65535, unquoted`,
    );
  });

  it("a data directory that cannot be created", async () => {
    const parent = mkdtempSync(join(tmpdir(), "xchain-notdir-"));
    writeFileSync(join(parent, "file"), "");
    const dataDir = join(parent, "file", "node");
    const r = await runXchain(["start", ...freePortFlags(dataDir)]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`xchain: dataDir: ${join(parent, "file")} (in ${dataDir}) is a file, not a directory`);
    const file = await runXchain(["start", ...freePortFlags(join(parent, "file"))]);
    expect(file.code).toBe(2);
    expect(file.stderr.trim()).toBe(`xchain: dataDir: ${join(parent, "file")} is a file, not a directory`);
  });

  // Node's mkdir({recursive: true}) spun at 100 % CPU there forever (ENOENT from a parent that exists).
  it.runIf(existsSync("/proc/self"))("a data directory under /proc: refused, the process exits", async () => {
    const r = await runXchain(["start", ...freePortFlags("/proc/nope")]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      "xchain: dataDir: cannot create /proc/nope: its parent /proc exists but does not accept new directories " +
        "(ENOENT: a virtual file system such as /proc, or a dangling symlink)",
    );
  });
});

describe("--dev.ephemeral", () => {
  it("refuses other networks and a data directory", async () => {
    const testnet = await runXchain(["start", "--dev.ephemeral", "--network", "testnet"]);
    expect(testnet.code).toBe(2);
    expect(testnet.stderr.trim()).toBe(
      "xchain: dev.ephemeral: a throw-away chain is for regtest only (network is testnet)",
    );
    const withDir = await runXchain(["start", "--dev.ephemeral", "--datadir", tempDataDir()]);
    expect(withDir.code).toBe(2);
    expect(withDir.stderr).toMatch(/^xchain: dev\.ephemeral: .*cannot be given too/);
  });

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`runs a fresh chain in a temporary directory removed at exit (${signal})`, async () => {
      const tmp = mkdtempSync(join(tmpdir(), "xchain-eph-parent-"));
      const child = spawn(
        process.execPath,
        [XCHAIN_BIN, "start", "--dev.ephemeral", "--rpc.http.port", "0", "--rpc.ws.port", "0", "--p2p.port", "0"],
        {stdio: ["ignore", "pipe", "pipe"], env: {...process.env, TMPDIR: tmp}},
      );
      const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("not ready within 20 s")), 20_000);
        child.stdout.on("data", (chunk: Buffer) => {
          if (chunk.toString().includes('"http"')) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      const dirs = readdirSync(tmp);
      expect(dirs).toHaveLength(1);
      expect(dirs[0]).toMatch(/^xchain-ephemeral-/);
      expect(readdirSync(join(tmp, dirs[0] as string))).toContain("db");
      child.kill(signal);
      expect(await exited).toBe(0);
      expect(readdirSync(tmp)).toEqual([]);
    });
  }
});
