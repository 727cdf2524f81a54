import {existsSync} from "node:fs";
import {mkdir, mkdtemp, readFile, rm, stat, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {type Logger, noopLogger} from "@xchain/utils";
import {afterEach, beforeEach, describe, expect, it, vi} from "vitest";
import {defaultTxPoolOptions, type TxPool} from "../src/index.ts";
import {decodeJournal, encodeJournal, JOURNAL_MAGIC} from "../src/journal/codec.ts";
import {journalRecords, TxJournal, type TxJournalOptions} from "../src/journal/txJournal.ts";
import {cows, hashes, openPool, signTx} from "./helpers.ts";

const records = [Uint8Array.of(1, 2, 3), new Uint8Array(300).fill(7), Uint8Array.of(0xc0)];

describe("journal codec", () => {
  it("reads back what it wrote, in order", () => {
    expect(decodeJournal(encodeJournal(records), 1024)).toEqual({records});
    expect(decodeJournal(encodeJournal([]), 1024)).toEqual({records: []});
  });

  it("keeps the records before a cut anywhere in the file, and says where it stopped", () => {
    const bytes = encodeJournal(records);
    const ends = [JOURNAL_MAGIC.length + 7, JOURNAL_MAGIC.length + 7 + 304, bytes.length];
    for (let cut = JOURNAL_MAGIC.length; cut < bytes.length; cut++) {
      const decoded = decodeJournal(bytes.subarray(0, cut), 1024);
      const whole = ends.filter((end) => end <= cut).length;
      expect(decoded.records).toEqual(records.slice(0, whole));
      // A cut exactly at a record's end is a shorter journal, not a damaged one.
      expect(decoded.damage === undefined).toBe(ends.includes(cut) || cut === JOURNAL_MAGIC.length);
    }
  });

  it("refuses a file without the header, and stops at an impossible record length", () => {
    expect(decodeJournal(Uint8Array.of(1, 2, 3), 1024)).toEqual({
      records: [],
      damage: "the file does not start with the journal header",
    });
    const bytes = encodeJournal(records);
    // The second record's length becomes 0xffffffff, then 0.
    const at = JOURNAL_MAGIC.length + 7;
    const huge = bytes.slice();
    huge.set([0xff, 0xff, 0xff, 0xff], at);
    expect(decodeJournal(huge, 1024)).toEqual({
      records: records.slice(0, 1),
      damage: `record of 4294967295 bytes at byte ${at} (at most 1024)`,
    });
    const zero = bytes.slice();
    zero.set([0, 0, 0, 0], at);
    expect(decodeJournal(zero, 1024).records).toEqual(records.slice(0, 1));
    expect(decodeJournal(bytes, 299)).toMatchObject({records: records.slice(0, 1)});
  });
});

describe("TxJournal", () => {
  let dir: string;
  let path: string;
  let warnings: string[];
  let debugs: string[];
  let logger: Logger;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "xchain-journal-"));
    path = join(dir, "txpool.journal");
    warnings = [];
    debugs = [];
    logger = {
      ...noopLogger,
      warn: (_c: object | string, message?: string) => warnings.push(message ?? ""),
      debug: (_c: object | string, message?: string) => debugs.push(message ?? ""),
    };
  });
  afterEach(async () => {
    vi.useRealTimers();
    await rm(dir, {recursive: true, force: true});
  });

  function journalOf(pool: TxPool, options: Partial<TxJournalOptions> = {}): TxJournal {
    return new TxJournal({...defaultTxPoolOptions, path, ...options}, {pool, logger});
  }

  /** A journal past its start-up load (of no file): one that writes. */
  async function loadedJournal(pool: TxPool, options: Partial<TxJournalOptions> = {}): Promise<TxJournal> {
    const journal = journalOf(pool, options);
    await journal.load();
    return journal;
  }

  /** Two pending transactions of cow 0, one queued of cow 1 (nonce 1, no nonce 0). */
  async function filledPool() {
    const setup = await openPool();
    const txs = [
      signTx(cows[0]!, {nonce: 0n}),
      signTx(cows[0]!, {nonce: 1n, gasPrice: 2n}),
      signTx(cows[1]!, {nonce: 1n}),
    ];
    for (const tx of txs) await setup.pool.add(tx);
    return {...setup, txs};
  }

  it("brings back the pending and queued transactions written on close", async () => {
    const {pool} = await filledPool();
    await (await loadedJournal(pool)).close();

    const {pool: restarted} = await openPool();
    expect(await journalOf(restarted).load()).toEqual({read: 3, admitted: 3});
    expect(hashes(restarted.pending())).toEqual(hashes(pool.pending()));
    expect(restarted.status()).toEqual({pending: 2, queued: 1});
    expect(warnings).toEqual([]);
  });

  it("leaves the file alone when closed before it was loaded (a start-up cut short)", async () => {
    const {pool} = await filledPool();
    await (await loadedJournal(pool)).close();
    const written = await readFile(path);
    const {pool: empty} = await openPool();
    await journalOf(empty).close();
    expect(await readFile(path)).toEqual(written);
  });

  it("starts without a journal when there is no file", async () => {
    const {pool} = await openPool();
    expect(await journalOf(pool).load()).toEqual({read: 0, admitted: 0});
    expect(warnings).toEqual([]);
  });

  it("drops, with a debug line each, the transactions no longer valid", async () => {
    const {pool, txs} = await filledPool();
    await (await loadedJournal(pool)).close();
    // Meanwhile cow 0's first transaction is mined: its nonce is too low now, its second stays.
    const {pool: restarted, chain: other, builder: otherBuilder} = await openPool();
    await other.importBlock(await otherBuilder.buildBlock({transactions: [txs[0]!]}));
    await restarted.settled();
    expect(await journalOf(restarted).load()).toEqual({read: 3, admitted: 2});
    expect(debugs).toHaveLength(1);
    expect(debugs[0]).toMatch(/dropped: nonce too low/);
    expect(restarted.status()).toEqual({pending: 1, queued: 1});
  });

  it("uses what decodes of a truncated file, with one warn line", async () => {
    const {pool} = await filledPool();
    await (await loadedJournal(pool)).close();
    const bytes = await readFile(path);
    await writeFile(path, bytes.subarray(0, bytes.length - 5));

    const {pool: restarted} = await openPool();
    expect(await journalOf(restarted).load()).toEqual({read: 2, admitted: 2});
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /txpool\.journal is damaged \(record at byte \d+ truncated .*\): using the 2 transactions/,
    );
  });

  it("starts empty, with one warn line, on a file of garbage or a directory in its place", async () => {
    await writeFile(path, "not a journal at all");
    const {pool} = await openPool();
    expect(await journalOf(pool).load()).toEqual({read: 0, admitted: 0});
    await rm(path);
    await mkdir(path);
    expect(await journalOf(pool).load()).toEqual({read: 0, admitted: 0});
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/does not start with the journal header/);
    expect(warnings[1]).toMatch(/cannot read the transaction journal/);
  });

  it("drops a record that is not a transaction and admits the ones after it", async () => {
    const {txs} = await filledPool();
    await writeFile(path, encodeJournal([txs[0]!.encode(), Uint8Array.of(0xde, 0xad), txs[1]!.encode()]));
    const {pool: restarted} = await openPool();
    expect(await journalOf(restarted).load()).toEqual({read: 3, admitted: 2});
    expect(debugs).toHaveLength(1);
    expect(hashes(restarted.pending())).toEqual(hashes(txs.slice(0, 2)));
  });

  it("reads no more than journalMaxBytes of a larger file", async () => {
    const {txs} = await filledPool();
    const bytes = encodeJournal(txs.map((tx) => tx.encode()));
    await writeFile(path, bytes);
    const {pool: restarted} = await openPool();
    const max = bytes.length - 10;
    expect(await journalOf(restarted, {journalMaxBytes: max}).load()).toEqual({read: 2, admitted: 2});
    expect(warnings).toHaveLength(1);
  });

  it("keeps the pending transactions first, the best paying first, within the byte budget", async () => {
    const {pool, txs} = await filledPool();
    const sizes = txs.map((tx) => 4 + tx.encode().length);
    const all = journalRecords(pool, 1 << 20);
    // Block order: cow 0's nonce 0 then nonce 1 (one sender, nonce order), then the queued one.
    expect(all).toEqual([txs[0]!.encode(), txs[1]!.encode(), txs[2]!.encode()]);
    expect(journalRecords(pool, sizes[0]! + sizes[1]! + sizes[2]! - 1)).toHaveLength(2);
    await (await loadedJournal(pool, {journalMaxBytes: JOURNAL_MAGIC.length + sizes[0]!})).close();
    expect(decodeJournal(await readFile(path), 1 << 20).records).toEqual([txs[0]!.encode()]);
  });

  it("rewrites the file every rejournalSeconds, only when the pool changed", async () => {
    vi.useFakeTimers({toFake: ["setInterval", "clearInterval"]});
    const {pool, txs} = await filledPool();
    const journal = await loadedJournal(pool, {rejournalSeconds: 5});
    journal.start();
    vi.advanceTimersByTime(4_999);
    await journal.close().then(() => rm(path));
    journal.start();
    vi.advanceTimersByTime(5_000);
    // The pool has not changed since close() wrote it: the tick writes nothing.
    await pool.settled();
    expect(existsSync(path)).toBe(false);
    await pool.add(signTx(cows[2]!, {nonce: 0n}));
    vi.advanceTimersByTime(5_000);
    await vi.waitFor(() => expect(existsSync(path)).toBe(true), {timeout: 20_000});
    await journal.close();
    expect(decodeJournal(await readFile(path), 1 << 20).records).toHaveLength(txs.length + 1);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });
});
