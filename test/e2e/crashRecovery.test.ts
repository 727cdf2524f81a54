// Kills a process importing blocks (SIGKILL at random moments, many times) and checks after every
// restart that the database opens, the head is a fully imported block, and state, receipts and
// indexes agree with it (everything one import writes is one LevelDB batch).
import {type ChildProcess, spawn} from "node:child_process";
import {mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {Chain, defaultChainOptions} from "@xchain/chain";
import {getChainspec, regtestGenesis} from "@xchain/chainspec";
import {calculateDifficulty} from "@xchain/consensus";
import {Bucket, LevelStore, numberKey} from "@xchain/db";
import {type Block, Transaction} from "@xchain/primitives";
import {ChainBuilder, cowAccounts} from "@xchain/test-utils";
import {bytesToHex, equalBytes, keccak256} from "@xchain/utils";
import {afterAll, describe, expect, it} from "vitest";

const chainspec = getChainspec("regtest");
const child = join(import.meta.dirname, "support", "importChild.mjs");
const BLOCKS = 40;
const TRANSFERS_PER_BLOCK = 30;
const KILLS = 12;

/** A chain of value transfers to fresh addresses from the ten cow accounts. */
async function buildChain(): Promise<Block[]> {
  const builder = await ChainBuilder.create({
    chainspec,
    genesis: regtestGenesis,
    difficulty: (h, p) => calculateDifficulty(h, p, chainspec),
  });
  const cows = cowAccounts();
  const nonces = cows.map(() => 0n);
  const blocks: Block[] = [];
  for (let n = 1; n <= BLOCKS; n++) {
    const txs: Transaction[] = [];
    for (let i = 0; i < TRANSFERS_PER_BLOCK; i++) {
      const k = i % cows.length;
      const to = keccak256(Uint8Array.of(n, i)).subarray(12);
      const values = {
        nonce: nonces[k]!++,
        gasPrice: 0n,
        gasLimit: 21_000n,
        to,
        value: BigInt(n * 1000 + i),
        data: new Uint8Array(0),
      };
      txs.push(Transaction.sign(values, cows[k]!.privateKey, chainspec.params.chainId));
    }
    blocks.push(await builder.buildBlock({transactions: txs}));
  }
  return blocks;
}

function startImporter(
  dir: string,
  file: string,
): {proc: ChildProcess; ready: Promise<void>; exited: Promise<number | null>} {
  const proc = spawn(process.execPath, [child, dir, file], {stdio: ["ignore", "pipe", "pipe"]});
  let stderr = "";
  proc.stderr?.on("data", (d) => {
    stderr += d;
  });
  const ready = new Promise<void>((resolve, reject) => {
    proc.stdout?.on("data", (d: Buffer) => {
      if (d.toString().includes("ready")) resolve();
    });
    proc.once("exit", (code) => reject(new Error(`importer exited (${code}) before ready: ${stderr}`)));
  });
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  return {proc, ready, exited};
}

/** Opens the database and checks that the head and everything indexed agree with the expected chain. */
async function checkConsistent(dir: string, expected: Block[]): Promise<number> {
  const store = await LevelStore.open(dir);
  try {
    const chain = await Chain.open(defaultChainOptions, {store, chainspec, genesis: regtestGenesis});
    const head = chain.head();
    if (head.number > 0) expect(bytesToHex(head.hash)).toBe(bytesToHex(expected[head.number - 1]!.hash()));
    // Canonical index: every number up to the head maps to the expected block, nothing above it.
    for (let n = 1; n <= head.number; n++) {
      expect(bytesToHex((await store.get(Bucket.canonicalHash, numberKey(n)))!)).toBe(
        bytesToHex(expected[n - 1]!.hash()),
      );
    }
    expect(await store.get(Bucket.canonicalHash, numberKey(head.number + 1))).toBeUndefined();
    if (head.number > 0) {
      const block = (await chain.getBlock(head.hash))!;
      const receipts = (await chain.getReceipts(head.hash))!;
      expect(receipts).toHaveLength(block.transactions.length);
      expect(receipts.at(-1)!.cumulativeGas).toBe(head.header.gasUsed);
      for (const [index, tx] of block.transactions.entries()) {
        const location = await chain.getTransactionLocation(tx.hash());
        expect(location && equalBytes(location.blockHash, head.hash) && location.index === index).toBe(true);
      }
      // The head's state is complete: the last recipient of the head block has its value.
      const state = await chain.stateAt(head.hash);
      const last = block.transactions.at(-2)!;
      expect(await state.getBalance(last.to!)).toBe(last.value);
      expect(await chain.getTotalDifficulty(head.hash)).toBe(head.totalDifficulty);
    }
    return head.number;
  } finally {
    await store.close();
  }
}

describe("crash recovery", () => {
  const dir = mkdtempSync(join(tmpdir(), "xchain-crash-"));
  afterAll(() => rmSync(dir, {recursive: true, force: true}));

  it(`keeps a consistent head through ${KILLS} SIGKILLs during import`, {timeout: 240_000}, async () => {
    const blocks = await buildChain();
    const file = join(dir, "blocks.txt");
    writeFileSync(file, blocks.map((b) => bytesToHex(b.encode())).join("\n"));
    // How many kills land before the importer finishes depends on the machine's speed, so a pass
    // that reaches the last block starts over on a fresh database until every kill has landed.
    let pass = 0;
    let db = join(dir, `db${pass}`);
    let lastHead = 0;
    let kills = 0;
    for (let round = 0; round < KILLS * 6 && kills < KILLS; round++) {
      const importer = startImporter(db, file);
      await importer.ready;
      // Each block takes a few tens of milliseconds: a random delay lands anywhere inside one.
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 150));
      if (importer.proc.exitCode === null && importer.proc.kill("SIGKILL")) kills++;
      await importer.exited;
      const head = await checkConsistent(db, blocks);
      expect(head).toBeGreaterThanOrEqual(lastHead);
      lastHead = head;
      if (lastHead === BLOCKS) {
        db = join(dir, `db${++pass}`);
        lastHead = 0;
      }
    }
    expect(kills).toBe(KILLS);
    // Finally let it run to the end.
    const importer = startImporter(db, file);
    expect(await importer.exited).toBe(0);
    expect(await checkConsistent(db, blocks)).toBe(BLOCKS);
  });
});
