/** `logsToJson` against `formatLog`: the cached JSON bytes must say what the log objects say. */
import type {LogWithContext} from "@xchain/chain";
import type {Log} from "@xchain/primitives";
import {describe, expect, it} from "vitest";
import {formatLog, logsToJson} from "../../src/format/log.ts";

/** `length` bytes counting up from `start`. */
const bytes = (length: number, start: number) => Uint8Array.from({length}, (_, i) => (start + i) & 0xff);

const log = (n: number, topicCount: number, dataLength: number): Log => ({
  address: bytes(20, n),
  topics: Array.from({length: topicCount}, (_, i) => bytes(32, n * 16 + i)),
  data: bytes(dataLength, 0xf0 + n),
});

const BLOCK_A = bytes(32, 0xa0);
const BLOCK_B = bytes(32, 0xb0);

/** Block 0x10 (two transactions) and block 0x1ff (two transactions, removed). */
function entries(): LogWithContext[] {
  const entry = (
    l: Log,
    blockHash: Uint8Array,
    blockNumber: number,
    transactionIndex: number,
    logIndex: number,
    removed: boolean,
  ): LogWithContext => ({
    log: l,
    blockHash,
    blockNumber,
    transactionHash: bytes(32, blockNumber + transactionIndex * 3),
    transactionIndex,
    logIndex,
    removed,
  });
  return [
    entry(log(1, 0, 0), BLOCK_A, 0x10, 0, 0, false),
    entry(log(2, 1, 1), BLOCK_A, 0x10, 0, 1, false),
    entry(log(3, 4, 64), BLOCK_A, 0x10, 1, 2, false),
    entry(log(4, 4, 0), BLOCK_B, 0x1ff, 0, 0, true),
    entry(log(5, 0, 33), BLOCK_B, 0x1ff, 0, 1, true),
    entry(log(6, 1, 0), BLOCK_B, 0x1ff, 11, 2, true),
  ];
}

describe("logsToJson", () => {
  it("gives the JSON of entries.map(formatLog)", () => {
    const list = entries();
    const json = logsToJson(list);
    expect(JSON.parse(json.bytes.toString("utf8"))).toEqual(list.map(formatLog));
    // Spot checks, so that a formatLog gone wrong in the same way does not pass unseen.
    const parsed = JSON.parse(json.bytes.toString("utf8"));
    expect(parsed[0]).toMatchObject({topics: [], data: "0x", blockNumber: "0x10", removed: false});
    expect(parsed[2].topics).toHaveLength(4);
    expect(parsed[2].data).toHaveLength(2 + 128);
    expect(parsed[3]).toMatchObject({blockNumber: "0x1ff", logIndex: "0x0", removed: true});
    expect(parsed[5].transactionIndex).toBe("0xb");
  });

  it("serializes like JSON.stringify of the formatted logs", () => {
    const list = entries();
    expect(logsToJson(list).bytes).toEqual(Buffer.from(JSON.stringify(list.map(formatLog))));
  });

  it("gives identical bytes when called again over the same entries, and for a subset", () => {
    const list = entries();
    const first = logsToJson(list).bytes;
    const second = logsToJson(list).bytes;
    expect(second).toEqual(first);
    const some = [list[4]!, list[1]!];
    expect(JSON.parse(logsToJson(some).bytes.toString("utf8"))).toEqual(some.map(formatLog));
  });

  it("gives separate answers for equal-looking entries that differ only in removed", () => {
    const [kept] = entries();
    const removed = {...kept!, removed: true};
    expect(JSON.parse(logsToJson([kept!, removed]).bytes.toString("utf8"))).toEqual([
      formatLog(kept!),
      formatLog(removed),
    ]);
  });

  it("gives [] for no entries", () => {
    const json = logsToJson([]);
    expect(json.bytes.toString("utf8")).toBe("[]");
    expect(JSON.parse(json.bytes.toString("utf8"))).toEqual([]);
  });
});
