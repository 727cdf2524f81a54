import type {NewHeadEvent} from "@xchain/chain";
import type {Block} from "@xchain/primitives";
import type {Logger} from "@xchain/utils";
import {afterEach, describe, expect, it} from "vitest";
import {BlockLog, SUMMARY_AGE_MS} from "../../src/log/blockLog.ts";

const NOW = 1_700_000_000_000;

function fakeBlock(number: number, ageMs: number, txs = 0): Block {
  return {
    header: {number, gasUsed: 21_000n * BigInt(txs), timestamp: Math.floor((NOW - ageMs) / 1000)},
    transactions: Array.from({length: txs}, () => ({to: new Uint8Array(20).fill(1), data: new Uint8Array()})),
    hash: () => new Uint8Array(32).fill(number),
  } as unknown as Block;
}

/** `importMs` null: the event of `Chain.setHead`. */
function event(added: Block[], removed: Block[] = [], importMs: number | null = 4): NewHeadEvent {
  const last = added[added.length - 1] ?? fakeBlock(0, 0);
  return {
    head: {header: last.header, hash: last.hash(), number: last.header.number, totalDifficulty: 1n},
    added,
    removed,
    addedLogs: [],
    removedLogs: [],
    droppedTransactions: [],
    importMs: importMs ?? undefined,
  };
}

function recorder() {
  const lines: {level: string; msg: string}[] = [];
  const at = (level: string) => (_fields: unknown, msg?: string) => lines.push({level, msg: msg ?? String(_fields)});
  const logger = {info: at("info"), warn: at("warn"), debug: at("debug")} as unknown as Logger;
  return {lines, logger};
}

const logs: BlockLog[] = [];
afterEach(() => {
  for (const log of logs.splice(0)) log.close();
});

describe("BlockLog", () => {
  it("writes one line per fresh block, with txs, gas, age and import time", () => {
    const {lines, logger} = recorder();
    const log = new BlockLog({logger, syncTarget: () => undefined, now: () => NOW});
    logs.push(log);
    log.onNewHead(event([fakeBlock(5, 2_000, 1)]));
    expect(lines).toEqual([
      {level: "info", msg: "block 5 0x05050505…0505: 1 tx, 21,000 gas, 2.0 s old, imported in 4 ms"},
    ]);
  });

  it("writes a block without user transactions at debug when told to (the transaction log is on)", () => {
    const {lines, logger} = recorder();
    const log = new BlockLog({logger, syncTarget: () => undefined, now: () => NOW, quietEmptyBlocks: true});
    logs.push(log);
    log.onNewHead(event([fakeBlock(6, 1_000)]));
    log.onNewHead(event([fakeBlock(7, 1_000, 1)]));
    expect(lines.map((l) => l.level)).toEqual(["debug", "info"]);
  });

  it("counts old blocks and blocks of a running sync into one summary", () => {
    const {lines, logger} = recorder();
    let now = NOW;
    let target: number | undefined = 1_000;
    const log = new BlockLog({logger, syncTarget: () => target, now: () => now});
    logs.push(log);
    for (let n = 1; n <= 10; n++) log.onNewHead(event([fakeBlock(n, 0, 2)]));
    target = undefined;
    log.onNewHead(event([fakeBlock(11, SUMMARY_AGE_MS + 1_000)]));
    expect(lines).toEqual([]);
    now += 2_000;
    target = 1_000;
    log.flush();
    expect(lines).toEqual([
      {
        level: "info",
        msg: "imported 11 blocks in 2.0 s (5.5 blocks/s, 10.0 txs/s), head block 11 0x0b0b0b0b…0b0b, behind by ~989 blocks",
      },
    ]);
    log.flush();
    expect(lines).toHaveLength(1);
  });

  it("warns of a reorganization with its depth, and notes a head moved back", () => {
    const {lines, logger} = recorder();
    const log = new BlockLog({logger, syncTarget: () => undefined, now: () => NOW});
    logs.push(log);
    log.onNewHead(event([fakeBlock(3, 0), fakeBlock(4, 0)], [fakeBlock(3, 0), fakeBlock(2, 0)]));
    expect(lines[0]).toEqual({
      level: "warn",
      msg: "reorganization of depth 2: 2 blocks replaced by 2, head block 4",
    });
    expect(lines.map((l) => l.msg).slice(1)).toEqual([
      "block 3 0x03030303…0303: 0 txs, 0 gas, 0 ms old",
      "block 4 0x04040404…0404: 0 txs, 0 gas, 0 ms old, imported in 4 ms",
    ]);
    log.onNewHead(event([], [fakeBlock(4, 0)], null));
    expect(lines[3]).toEqual({level: "info", msg: "head moved back to block 0"});
  });
});
