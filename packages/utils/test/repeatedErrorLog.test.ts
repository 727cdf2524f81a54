import {describe, expect, it} from "vitest";
import {NodeError} from "../src/errors.ts";
import {noopLogger} from "../src/logger.ts";
import {RepeatedErrorLog} from "../src/repeatedErrorLog.ts";

function recorder() {
  const lines: {fields: unknown; message: string}[] = [];
  const logger = {
    ...noopLogger,
    error: (fields: unknown, message?: string) => lines.push({fields, message: message ?? ""}),
  };
  return {lines, logger};
}

describe("RepeatedErrorLog", () => {
  it("logs the first error of a kind at once and the repeats once per interval, with their count", () => {
    let now = 0;
    const {lines, logger} = recorder();
    const log = new RepeatedErrorLog(logger, "mining failed", 60_000, () => now);
    const full = new NodeError({code: "DATABASE_DISK_FULL"}, "no space left");
    for (let i = 0; i < 480; i++) {
      log.report(full);
      now += 125;
    }
    // 480 failures over 60 s: the first, then one line at 60 s counting the 479 held back.
    expect(lines.map((l) => l.message)).toEqual(["mining failed"]);
    log.report(full);
    expect(lines.map((l) => l.message)).toEqual([
      "mining failed",
      "mining failed (and 479 more time(s) since the last line)",
    ]);
  });

  it("keeps kinds apart: another code or message is logged at once", () => {
    const {lines, logger} = recorder();
    const log = new RepeatedErrorLog(logger, "failed", 60_000, () => 0);
    log.report(new NodeError({code: "A"}));
    log.report(new NodeError({code: "A"}));
    log.report(new NodeError({code: "B"}));
    log.report(new Error("plain"));
    log.report(new Error("plain"));
    expect(lines).toHaveLength(3);
  });
});
