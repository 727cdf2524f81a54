// A real node's database damaged in each way an operator's bad day goes (docs/operations.md §6):
// bytes flipped in a table file and in the write-ahead log, the log truncated, CURRENT or the
// MANIFEST lost or garbled, db/ deleted. Every case ends in correct answers, -32000 answers naming
// the damage, or a refusal to start naming it and the recovery — never a wrong answer, a wiped chain
// or an abort — and `xchain db repair` brings each case back to correct answers.
import {execFileSync} from "node:child_process";
import {cpSync, readdirSync, readFileSync, rmSync, truncateSync, unlinkSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {freePortFlags} from "@xchain/test-utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {JsonRpcFault, rpc, waitForReceipt} from "../support/jsonRpc.ts";
import {type Exit, type RunningNode, runXchain, startNode, tempDataDir} from "../support/xchainProcess.ts";

const TRANSFERS = 40;
const NODE_FLAGS = ["--p2p.enabled", "false", "--miner.blockTimeMs", "0"];
const compactScript = join(import.meta.dirname, "..", "support", "compactDatabase.mjs");

/** A value sent to a fresh address, and the block that holds it. */
interface Transfer {
  to: string;
  value: bigint;
  block: number;
}

let pristine: string;
let transfers: Transfer[];
let blockHashes: string[];
const dirs: string[] = [];

beforeAll(async () => {
  pristine = tempDataDir();
  const node = await startNode(NODE_FLAGS, pristine);
  try {
    const accounts = await rpc<string[]>(node.httpUrl, "eth_accounts");
    const sent: {to: string; value: bigint; hash: string}[] = [];
    for (let i = 0; i < TRANSFERS; i++) {
      const to = `0x${(0xd00d0000 + i).toString(16).padStart(40, "0")}`;
      const value = 1_000_000n + BigInt(i) * 7n;
      const from = accounts[i % accounts.length];
      const hash = await rpc<string>(node.httpUrl, "eth_sendTransaction", [
        {from, to, value: `0x${value.toString(16)}`, gas: "0x5208"},
      ]);
      sent.push({to, value, hash});
    }
    transfers = [];
    for (const {to, value, hash} of sent) {
      const receipt = await waitForReceipt(node.httpUrl, hash);
      transfers.push({to, value, block: Number(receipt.blockNumber)});
    }
    const head = Number(await rpc<string>(node.httpUrl, "eth_blockNumber"));
    blockHashes = [];
    for (let n = 0; n <= head; n++) {
      blockHashes.push(
        (await rpc<{hash: string}>(node.httpUrl, "eth_getBlockByNumber", [`0x${n.toString(16)}`, false])).hash,
      );
    }
  } finally {
    await node.stop();
  }
}, 120_000);

afterAll(() => {
  for (const dir of [pristine, ...dirs]) if (dir) rmSync(dir, {recursive: true, force: true});
});

/** A copy of the pristine data directory, optionally with its database compacted into table files. */
function copyOfPristine(compacted = false): string {
  const dir = tempDataDir();
  dirs.push(dir);
  cpSync(pristine, dir, {recursive: true});
  if (compacted) execFileSync(process.execPath, [compactScript, join(dir, "db")]);
  return dir;
}

function dbFile(dir: string, suffix: string): string {
  const name = readdirSync(join(dir, "db")).find(
    (f) => f.endsWith(suffix) && readFileSync(join(dir, "db", f)).length > 0,
  );
  if (!name) throw new Error(`no non-empty *${suffix} in ${dir}/db`);
  return join(dir, "db", name);
}

/** Flips `length` bytes at each fraction of the file's size. */
function flipBytes(file: string, fractions: number[], length = 64): void {
  const bytes = readFileSync(file);
  for (const fraction of fractions) {
    const at = Math.floor(bytes.length * fraction);
    for (let i = at; i < Math.min(at + length, bytes.length); i++) bytes[i] = (bytes[i] as number) ^ 0xff;
  }
  writeFileSync(file, bytes);
}

/**
 * Asks for every transfer's balance and every block's hash up to `head`: each answer must be the
 * original one (as of `head`) or a -32000 naming the damage. Returns how many were -32000.
 */
async function checkAnswers(node: RunningNode, head: number): Promise<number> {
  let damaged = 0;
  const expectDamage = (e: unknown) => {
    if (!(e instanceof JsonRpcFault)) throw e;
    expect(e.code).toBe(-32000);
    expect(e.message).toMatch(/damaged/);
    expect(e.message).toMatch(/xchain db repair/);
    damaged++;
  };
  for (const {to, value, block} of transfers) {
    try {
      const balance = BigInt(await rpc<string>(node.httpUrl, "eth_getBalance", [to, "latest"]));
      expect(balance, `balance of ${to} at block ${head}`).toBe(block <= head ? value : 0n);
    } catch (e) {
      expectDamage(e);
    }
  }
  for (let n = 0; n <= head; n++) {
    try {
      const block = await rpc<{hash: string} | null>(node.httpUrl, "eth_getBlockByNumber", [
        `0x${n.toString(16)}`,
        false,
      ]);
      expect(block?.hash, `block ${n}`).toBe(blockHashes[n]);
    } catch (e) {
      expectDamage(e);
    }
  }
  return damaged;
}

function expectRefusal(exit: Exit, pattern: RegExp): void {
  expect(exit.code, exit.stderr + exit.stdout).toBe(2);
  expect(exit.stderr).toMatch(pattern);
  expect(exit.stderr).not.toMatch(/Aborted|core dumped|SIGABRT/);
}

/** `xchain start` on `dir`, expected to be refused. */
function refusedStartOn(dir: string): Promise<Exit> {
  return runXchain(["start", ...freePortFlags(dir), ...NODE_FLAGS]);
}

/** Runs `xchain db repair` then `xchain db verify` (which must find it whole); resolves to the repaired head. */
async function repair(dir: string): Promise<number> {
  const repaired = await runXchain(["db", "repair", "--datadir", dir], 60_000);
  expect(repaired.code, repaired.stderr + repaired.stdout).toBe(0);
  const verified = await runXchain(["db", "verify", "--datadir", dir], 60_000);
  expect(verified.code, verified.stdout).toBe(0);
  expect(verified.stdout).toMatch(/the database is whole/);
  // A full compaction reads every table block with its checksum: no damaged block is left behind
  // (shadowed by newer writes, it would fail the next compaction that meets it).
  execFileSync(process.execPath, [compactScript, join(dir, "db")]);
  const head = /recorded block (\d+) as the head/.exec(repaired.stdout);
  expect(head, repaired.stdout).not.toBeNull();
  return Number(head?.[1]);
}

/** Starts a node on the repaired `dir` and checks that every answer is the original one as of its head. */
async function expectWholeAfterRepair(dir: string, expectedHead?: number): Promise<void> {
  const head = await repair(dir);
  if (expectedHead !== undefined) expect(head).toBe(expectedHead);
  const node = await startNode(NODE_FLAGS, dir);
  try {
    expect(Number(await rpc<string>(node.httpUrl, "eth_blockNumber"))).toBe(head);
    expect(await checkAnswers(node, head)).toBe(0);
  } finally {
    await node.stop();
  }
}

/** Starts a node on `dir` and checks that every answer is the original one at the original head. */
async function expectOriginalAnswers(dir: string): Promise<void> {
  const node = await startNode(NODE_FLAGS, dir);
  try {
    expect(await checkAnswers(node, blockHashes.length - 1)).toBe(0);
  } finally {
    await node.stop();
  }
}

describe("a damaged database", () => {
  it("answers correctly from a whole copy (the baseline of the cases below)", async () => {
    const dir = copyOfPristine(true);
    await expectOriginalAnswers(dir);
  }, 60_000);

  it("with bytes flipped in a table file: the start is refused or damage answers -32000, never a wrong value", async () => {
    // Flips land in different parts of the table from one fraction to the next: some in what start-up
    // reads (refused), others in state or blocks read only when asked (served, with -32000 answers).
    let refused = 0;
    let servedWithDamage: string | undefined;
    for (const fraction of [0.5, 0.3, 0.7, 0.15, 0.85, 0.05, 0.95, 0.4, 0.6]) {
      const dir = copyOfPristine(true);
      flipBytes(dbFile(dir, ".ldb"), [fraction]);
      let node: RunningNode;
      try {
        node = await startNode(NODE_FLAGS, dir);
      } catch (e) {
        // Damage read while opening (the head, the genesis) refuses the start, naming it and the repair.
        expect(String(e)).toMatch(/is damaged \(Corruption: block checksum mismatch\); run `xchain db repair/);
        refused++;
        await expectWholeAfterRepair(dir);
        continue;
      }
      try {
        const damaged = await checkAnswers(node, blockHashes.length - 1);
        if (damaged > 0) {
          const ready = await fetch(new URL("/ready", node.httpUrl));
          expect(ready.status).toBe(503);
          expect(await ready.text()).toMatch(/damaged/);
          // Still serving: the damage did not take the process down.
          expect(Number(await rpc<string>(node.httpUrl, "eth_chainId"))).toBe(33);
          servedWithDamage = dir;
        }
      } finally {
        expect((await node.stop()).code).toBe(0);
      }
      if (servedWithDamage) break;
    }
    expect(servedWithDamage, `every one of ${refused} flips refused the start`).toBeDefined();
    const dir = servedWithDamage as string;
    const verified = await runXchain(["db", "verify", "--datadir", dir], 60_000);
    expect(verified.code, verified.stderr + verified.stdout).toBe(1);
    expect(verified.stdout).toMatch(/damage: /);
    await expectWholeAfterRepair(dir);
  }, 300_000);

  it("with bytes flipped in the write-ahead log: the start is refused naming the damage; repair brings it back", async () => {
    const dir = copyOfPristine();
    flipBytes(dbFile(dir, ".log"), [0.5]);
    expectRefusal(await refusedStartOn(dir), /is damaged \(Corruption[^)]*\); run `xchain db repair/);
    await expectWholeAfterRepair(dir);
  }, 120_000);

  it("with the write-ahead log truncated: the start is refused (blocks lost); repair goes on from what is left", async () => {
    const dir = copyOfPristine();
    const log = dbFile(dir, ".log");
    truncateSync(log, Math.floor(readFileSync(log).length * 0.6));
    expectRefusal(
      await refusedStartOn(dir),
      /lost blocks: its head is block \d+, but database\.json records block \d+/,
    );
    await expectWholeAfterRepair(dir);
  }, 120_000);

  it("without CURRENT: the start is refused (not a new empty chain); repair keeps every block", async () => {
    const dir = copyOfPristine(true);
    unlinkSync(join(dir, "db", "CURRENT"));
    expectRefusal(await refusedStartOn(dir), /is damaged \(its CURRENT file is missing\)/);
    await expectWholeAfterRepair(dir, blockHashes.length - 1);
  }, 120_000);

  it("with a garbage CURRENT or without its MANIFEST: the start is refused; repair keeps every block", async () => {
    const garbage = copyOfPristine(true);
    writeFileSync(join(garbage, "db", "CURRENT"), "MANIFEST-999999\n");
    expectRefusal(await refusedStartOn(garbage), /is damaged \(its file MANIFEST-999999 is missing\)/);
    await expectWholeAfterRepair(garbage, blockHashes.length - 1);

    const noManifest = copyOfPristine(true);
    for (const f of readdirSync(join(noManifest, "db")))
      if (f.startsWith("MANIFEST-")) unlinkSync(join(noManifest, "db", f));
    expectRefusal(await refusedStartOn(noManifest), /is damaged \(its file MANIFEST-\d+ is missing\)/);
    await expectWholeAfterRepair(noManifest, blockHashes.length - 1);
  }, 180_000);

  it("without db/: the start is refused (the chain is not silently replaced); a back-up restored brings it back", async () => {
    const dir = copyOfPristine();
    rmSync(join(dir, "db"), {recursive: true});
    expectRefusal(
      await refusedStartOn(dir),
      /the database of .* is gone: .*database\.json records regtest up to block \d+/,
    );
    cpSync(join(pristine, "db"), join(dir, "db"), {recursive: true});
    await expectOriginalAnswers(dir);
  }, 120_000);
});
