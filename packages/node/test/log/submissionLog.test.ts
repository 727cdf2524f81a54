// The submission log: one info line per mnr_* submission, from the miner's events; eth_submitWork is the miner's own.
import {EventEmitter} from "node:events";
import {ImportResultKind} from "@xchain/chain";
import {MinerError, MinerErrorCode, type MinerEvents} from "@xchain/miner";
import {type Logger, noopLogger, subscribe} from "@xchain/utils";
import pino from "pino";
import {describe, expect, it} from "vitest";
import {submissionLog} from "../../src/log/submissionLog.ts";

describe("the submission log", () => {
  it("logs each mnr_* submission's block and result, or why it was refused, with the error's code and metadata", () => {
    const lines: [object, string][] = [];
    const logger: Logger = {
      ...noopLogger,
      info: (fields: object | string, msg?: string) => void lines.push([fields as object, msg ?? ""]),
      warn: (fields: object | string, msg?: string) => void lines.push([fields as object, `warn ${msg}`]),
    };
    const events = new EventEmitter<MinerEvents>();
    subscribe(events, submissionLog(logger));
    const blockHash = Uint8Array.from({length: 32}, (_, i) => i);
    const result = {importResult: ImportResultKind.IMPORTED_BEST, blockHash, blockIncludedHeight: 7};
    events.emit("submission", {method: "mnr_submitBitcoinBlock", outcome: {kind: "imported", result}});
    const error = new MinerError({code: MinerErrorCode.RATE_LIMITED, retryAfterMs: 10_000});
    events.emit("submission", {
      method: "mnr_submitBitcoinBlockPartialMerkle",
      outcome: {kind: "refused", reason: error.message, error},
    });
    const fault = new Error("disk full");
    events.emit("submission", {method: "mnr_submitBitcoinBlock", outcome: {kind: "failed", error: fault}});
    events.emit("submission", {method: "eth_submitWork", outcome: {kind: "refused", reason: "above the target"}});
    expect(lines).toEqual([
      [
        {method: "mnr_submitBitcoinBlock", result: "IMPORTED_BEST", number: 7},
        expect.stringMatching(/^mnr_submitBitcoinBlock: block 7 0x00010203.*IMPORTED_BEST$/),
      ],
      [
        {method: "mnr_submitBitcoinBlockPartialMerkle", code: MinerErrorCode.RATE_LIMITED, retryAfterMs: 10_000},
        "mnr_submitBitcoinBlockPartialMerkle refused: Cannot publish block, block submission rate limit exceeded",
      ],
      [{method: "mnr_submitBitcoinBlock"}, "warn mnr_submitBitcoinBlock failed: disk full"],
    ]);
  });

  it("writes an expected refusal as one JSON line without a stack (the rate limit of testnet)", () => {
    const written: string[] = [];
    const logger = pino({level: "info", base: undefined}, {write: (line: string) => void written.push(line)});
    const events = new EventEmitter<MinerEvents>();
    subscribe(events, submissionLog(logger));
    const error = new MinerError({code: MinerErrorCode.RATE_LIMITED, retryAfterMs: 9_000});
    events.emit("submission", {
      method: "mnr_submitBitcoinBlock",
      outcome: {kind: "refused", reason: error.message, error},
    });
    expect(written).toHaveLength(1);
    expect(written[0]).not.toContain("stack");
    expect(JSON.parse(written[0]!)).toMatchObject({
      level: 30,
      code: "MINER_RATE_LIMITED",
      retryAfterMs: 9_000,
      msg: "mnr_submitBitcoinBlock refused: Cannot publish block, block submission rate limit exceeded",
    });
  });
});
