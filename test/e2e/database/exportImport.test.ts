// The operator's tools on a real node's data directory (docs/operations.md §5): a node mines transfers
// and a contract; `xchain db export` of it, `xchain db import` into a fresh data directory, and a
// node started there has the same head, balances and storage. The back-up procedure of the docs
// (stop, copy the directory, start the copy) is run as written; `db inspect` lists the buckets and
// the head; `db compact` shrinks nothing it needs; a truncated, tampered or foreign file stops the
// import naming the block; a running node's directory is refused by every tool.
import {execFileSync, spawn} from "node:child_process";
import {readFileSync, rmSync, writeFileSync} from "node:fs";
import {basename, dirname, join} from "node:path";
import {gunzipSync} from "node:zlib";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {counterBytecode} from "../support/counterContract.ts";
import {rpc, waitForReceipt} from "../support/jsonRpc.ts";
import {runCli} from "../support/runCli.ts";
import {startNode, tempDataDir, XCHAIN_BIN} from "../support/xchainProcess.ts";

const NODE_FLAGS = ["--p2p.enabled", "false", "--miner.blockTimeMs", "0"];
const TRANSFERS = 12;
/** `increment()` of the Counter contract. */
const INCREMENT = "0xd09de08a";

/** What the source node holds at its head, as RPC answers it. */
interface Snapshot {
  head: {number: number; hash: string};
  balances: Record<string, string>;
  count: string;
  code: string;
}

let source: string;
let contract: string;
let recipients: string[];
let expected: Snapshot;
let exportFile: string;
/** A block in the middle of the chain, and its state root (which the tampering test alters). */
let tamperedBlock: number;
let tamperedStateRoot: string;
const dirs: string[] = [];

function newDir(): string {
  const dir = tempDataDir();
  dirs.push(dir);
  return dir;
}

/** Head, the recipients' and the senders' balances, the counter's storage and code, read from a node. */
async function snapshotOf(url: string): Promise<Snapshot> {
  const block = await rpc<{number: string; hash: string}>(url, "eth_getBlockByNumber", ["latest", false]);
  const accounts = await rpc<string[]>(url, "eth_accounts");
  const balances: Record<string, string> = {};
  for (const address of [...recipients, ...accounts.slice(0, 3)]) {
    balances[address] = await rpc<string>(url, "eth_getBalance", [address, block.number]);
  }
  return {
    head: {number: Number(block.number), hash: block.hash},
    balances,
    count: await rpc<string>(url, "eth_getStorageAt", [contract, "0x0", block.number]),
    code: await rpc<string>(url, "eth_getCode", [contract, block.number]),
  };
}

/** Starts a node on `dataDir`, reads its snapshot, stops it. */
async function snapshotOfDataDir(dataDir: string): Promise<Snapshot> {
  const node = await startNode(NODE_FLAGS, dataDir);
  try {
    return await snapshotOf(node.httpUrl);
  } finally {
    await node.stop();
  }
}

beforeAll(async () => {
  source = newDir();
  const node = await startNode(NODE_FLAGS, source);
  try {
    const url = node.httpUrl;
    const accounts = await rpc<string[]>(url, "eth_accounts");
    const send = async (tx: Record<string, string>) =>
      waitForReceipt(url, await rpc<string>(url, "eth_sendTransaction", [tx]));
    const deployed = await send({from: accounts[0] as string, data: counterBytecode(), gas: "0x200000"});
    contract = deployed.contractAddress as string;
    recipients = [];
    for (let i = 0; i < TRANSFERS; i++) {
      const to = `0x${(0xe0e0_0000 + i).toString(16).padStart(40, "0")}`;
      recipients.push(to);
      await send({from: accounts[i % 3] as string, to, value: `0x${(1_000_000 + i * 13).toString(16)}`});
      if (i % 4 === 0) await send({from: accounts[1] as string, to: contract, data: INCREMENT, gas: "0x30000"});
    }
    expected = await snapshotOf(url);
    expect(BigInt(expected.count)).toBe(3n);
    tamperedBlock = Math.floor(expected.head.number / 2);
    tamperedStateRoot = (
      await rpc<{stateRoot: string}>(url, "eth_getBlockByNumber", [`0x${tamperedBlock.toString(16)}`, false])
    ).stateRoot;

    // Every tool refuses the directory while the node holds it, saying so (verify used to call it damage
    // and send the operator to repair).
    for (const tool of [
      ["inspect"],
      ["export", join(source, "x.rlp")],
      ["compact"],
      ["verify"],
      ["repair"],
      ["import", "x.rlp"],
    ]) {
      const refused = await runCli("db", ...tool, "--datadir", source);
      expect(refused.code, tool.join(" ")).toBe(2);
      expect(refused.stderr).toContain(`the data directory ${source} is in use by a running xchain node`);
      expect(refused.stderr).toContain(`then run xchain db ${tool[0]} again`);
      expect(refused.stdout).not.toMatch(/damage|repair/);
    }
  } finally {
    await node.stop();
  }
  exportFile = join(newDir(), "chain.rlp");
  const exported = await runCli("db", "export", exportFile, "--datadir", source);
  expect(exported.code, exported.stderr).toBe(0);
  expect(exported.stderr).toContain(`exported blocks 0..${expected.head.number}`);
}, 180_000);

afterAll(() => {
  for (const dir of dirs) rmSync(dir, {recursive: true, force: true});
});

describe("xchain db export and import", () => {
  it("imports a node's export into a fresh data directory: same head hash, balances and storage", async () => {
    const fresh = newDir();
    const imported = await runCli("db", "import", exportFile, "--datadir", fresh);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(
      `imported ${expected.head.number} block(s), 1 already known; head: block ${expected.head.number} ${expected.head.hash}`,
    );
    expect(await snapshotOfDataDir(fresh)).toEqual(expected);
    // The node stopped cleanly and recorded its head: verify finds the imported chain whole.
    const verified = await runCli("db", "verify", "--datadir", fresh);
    expect(verified.stdout).toContain("the database is whole");
  }, 120_000);

  it("resumes: a data directory behind the file imports only what it lacks", async () => {
    const behind = newDir();
    const part = join(behind, "..", `${behind.split("/").at(-1)}-part.rlp.gz`);
    dirs.push(part);
    const first = await runCli("db", "export", part, "--datadir", source, "--to", "5");
    expect(first.code, first.stderr).toBe(0);
    // The .gz file is gzip, and holds exactly the first six blocks of the whole export.
    const whole = readFileSync(exportFile);
    const head = gunzipSync(readFileSync(part));
    expect(whole.subarray(0, head.length)).toEqual(head);
    expect((await runCli("db", "import", part, "--datadir", behind)).stdout).toContain(
      "imported 5 block(s), 1 already known; head: block 5",
    );
    const rest = await runCli("db", "import", exportFile, "--datadir", behind);
    expect(rest.stdout).toContain(`imported ${expected.head.number - 5} block(s), 6 already known`);
    expect((await snapshotOfDataDir(behind)).head).toEqual(expected.head);
  }, 120_000);

  it("streams through stdout and stdin", async () => {
    const fresh = newDir();
    const code = await new Promise<number | null>((resolve, reject) => {
      const exporter = spawn(process.execPath, [XCHAIN_BIN, "db", "export", "-", "--datadir", source], {
        stdio: ["ignore", "pipe", "ignore"],
      });
      const importer = spawn(process.execPath, [XCHAIN_BIN, "db", "import", "-", "--datadir", fresh], {
        stdio: ["pipe", "ignore", "inherit"],
      });
      exporter.stdout.pipe(importer.stdin);
      importer.on("error", reject);
      importer.on("close", resolve);
    });
    expect(code).toBe(0);
    expect((await snapshotOfDataDir(fresh)).head).toEqual(expected.head);
  }, 120_000);

  it("stops at a truncated file, naming where, with the blocks before it imported", async () => {
    const bytes = readFileSync(exportFile);
    const truncated = join(newDir(), "truncated.rlp");
    writeFileSync(truncated, bytes.subarray(0, bytes.length - 40));
    const fresh = newDir();
    const result = await runCli("db", "import", truncated, "--datadir", fresh);
    expect(result.code).toBe(2);
    const last = expected.head.number + 1;
    expect(result.stderr).toMatch(
      new RegExp(
        `${truncated} ends inside its block ${last} \\(at byte \\d+, \\d+ of its \\d+ bytes present\\): the file is truncated`,
      ),
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
    // Running it again with the whole file finishes the import.
    const resumed = await runCli("db", "import", exportFile, "--datadir", fresh);
    expect(resumed.stdout).toContain(`imported 1 block(s), ${expected.head.number} already known`);
  }, 120_000);

  it("refuses a tampered block, naming it, and stores nothing of it", async () => {
    const bytes = Buffer.from(readFileSync(exportFile));
    const target = tamperedBlock;
    // One byte of the block's state root changed: the block decodes, and import refuses it.
    const at = bytes.indexOf(Buffer.from(tamperedStateRoot.slice(2), "hex"));
    expect(at).toBeGreaterThan(0);
    bytes[at + 5] = (bytes[at + 5] as number) ^ 0x01;
    const tampered = join(newDir(), "tampered.rlp");
    writeFileSync(tampered, bytes);
    const fresh = newDir();
    const result = await runCli("db", "import", tampered, "--datadir", fresh);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(`block ${target} \\(0x[0-9a-f]{64}\\), block ${target + 1} of ${tampered}, is invalid: [A-Z_]+: `),
    );
    expect(result.stderr).toContain(`the chain stays at block ${target - 1}`);
    expect((await snapshotOfDataDir(fresh)).head.number).toBe(target - 1);
  }, 120_000);

  it("refuses a file that is not a block file, and another network's blocks", async () => {
    const garbage = join(newDir(), "garbage.rlp");
    writeFileSync(garbage, "this is not a block file\n");
    const result = await runCli("db", "import", garbage, "--datadir", newDir());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `xchain: ${garbage}: the byte at offset 0 (0x74) cannot start its block 1 (an RLP list): not a block file`,
    );
    const missing = await runCli("db", "import", join(newDir(), "nothing.rlp"), "--datadir", newDir());
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read .*nothing\.rlp: ENOENT/);
    const testnet = await runCli("db", "import", exportFile, "--datadir", newDir(), "--network", "testnet");
    expect(testnet.code).toBe(2);
    expect(testnet.stderr).toMatch(/holds the chain of genesis 0x[0-9a-f]{64}, not testnet's 0x[0-9a-f]{64}/);
  }, 120_000);
});

describe("xchain db inspect and compact, and the back-up procedure", () => {
  it("inspect lists the buckets, the head and the oldest state served", async () => {
    const text = await runCli("db", "inspect", "--datadir", source);
    expect(text.code, text.stderr).toBe(0);
    for (const bucket of [
      "stateTrie (0x01)",
      "header (0x02)",
      "body (0x03)",
      "receipts (0x04)",
      "canonicalHash (0x06)",
    ]) {
      expect(text.stdout).toContain(bucket);
    }
    expect(text.stdout).toContain(`head: block ${expected.head.number} ${expected.head.hash}`);
    expect(text.stdout).toMatch(/oldest state served: block 0 0x/);
    const json = await runCli("db", "inspect", "--json", "--datadir", source);
    const inspection = JSON.parse(json.stdout) as {
      totalDiskBytes: number;
      buckets: {name: string; keys: number; diskBytes: number; dataBytes: number}[];
      chain: {head: {number: number; hash: string}; schemaVersion: number; oldestState: {number: number}};
    };
    expect(inspection.chain.head).toEqual(expected.head);
    expect(inspection.chain.oldestState.number).toBe(0);
    const bucket = (name: string) => inspection.buckets.find((b) => b.name === name);
    expect(bucket("canonicalHash")?.keys).toBe(expected.head.number + 1);
    expect(bucket("header")?.keys).toBeGreaterThanOrEqual(expected.head.number + 1);
    expect(bucket("stateTrie")?.dataBytes).toBeGreaterThan(0);
    expect(inspection.totalDiskBytes).toBeGreaterThan(0);
    const quick = JSON.parse((await runCli("db", "inspect", "--json", "--no-count", "--datadir", source)).stdout);
    expect(quick.buckets[0].keys).toBeUndefined();
  }, 60_000);

  it("restores a stopped node's copied data directory elsewhere, and compacts it: same head and balances", async () => {
    // docs/operations.md §5, "Back up and restore the data directory", as written: the node is
    // stopped; `tar czf` of the whole directory, `tar xzf` elsewhere, started with --datadir there.
    const backup = join(newDir(), "xchain-backup.tgz");
    execFileSync("tar", ["czf", backup, "-C", dirname(source), basename(source)]);
    const target = newDir();
    execFileSync("tar", ["xzf", backup, "-C", target]);
    const restored = join(target, basename(source));
    const compacted = await runCli("db", "compact", "--datadir", restored);
    expect(compacted.code, compacted.stderr).toBe(0);
    expect(compacted.stdout).toMatch(/^compacted .*\/db: [\d.]+ (B|KiB|MiB) before, [\d.]+ (B|KiB|MiB) after$/m);
    expect(await snapshotOfDataDir(restored)).toEqual(expected);
  }, 120_000);
});
