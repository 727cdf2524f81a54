// database.json: read strictly, written atomically, kept up with the head (at most once a second,
// the last head on close).
import {mkdtempSync, readFileSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {type DataDirRecord, HeadRecorder, RECORD_FILE, readRecord, writeRecord} from "../../src/dataDir/record.ts";

const HASH = `0x${"ab".repeat(32)}`;
const record: DataDirRecord = {
  format: 1,
  network: "regtest",
  chainId: 33,
  genesis: HASH,
  head: {number: 0, hash: HASH},
};
const head = (n: number) => ({number: n, hash: Uint8Array.from({length: 32}, () => n)});

describe("the data directory's record", () => {
  it("reads back what was written, and is absent where none was", async () => {
    const dir = mkdtempSync(join(tmpdir(), "xchain-record-"));
    expect(await readRecord(dir)).toBeUndefined();
    await writeRecord(dir, record, true);
    expect(await readRecord(dir)).toEqual(record);
  });

  it("refuses a file that is not a record, naming it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "xchain-record-"));
    for (const text of [
      "{",
      "[]",
      JSON.stringify({...record, format: 2}),
      JSON.stringify({...record, head: {number: -1, hash: HASH}}),
    ]) {
      writeFileSync(join(dir, RECORD_FILE), text);
      await expect(readRecord(dir)).rejects.toThrow(/database\.json is not a database record of this node/);
    }
  });

  it("keeps the head: coalesced while running, the last one written on close", async () => {
    const dir = mkdtempSync(join(tmpdir(), "xchain-record-"));
    const errors: unknown[] = [];
    const recorder = new HeadRecorder({dataDir: dir, record}, {onError: (e) => errors.push(e)});
    for (let n = 1; n <= 50; n++) recorder.update(head(n));
    await recorder.close();
    const written = JSON.parse(readFileSync(join(dir, RECORD_FILE), "utf8")) as DataDirRecord;
    expect(written.head.number).toBe(50);
    expect(errors).toEqual([]);
  });

  it("reports a failed write once, not on every retry", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "xchain-record-")), "missing", "dir");
    const errors: unknown[] = [];
    const recorder = new HeadRecorder({dataDir: dir, record}, {onError: (e) => errors.push(e)});
    recorder.update(head(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    recorder.update(head(2));
    await recorder.close();
    expect(errors).toHaveLength(1);
  });
});
