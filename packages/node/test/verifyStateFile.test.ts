import {mkdtempSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {
  assertNoVerifyState,
  readVerifyState,
  type VerifyState,
  VerifyStateErrorCode,
  writeVerifyState,
} from "../src/verify/verifyStateFile.ts";

const RUN = {network: "mainnet", from: 100, to: 200};
const STATE: VerifyState = {
  version: 1,
  ...RUN,
  next: 150,
  previousHash: `0x${"ab".repeat(32)}`,
  valid: 49,
  invalid: 1,
  forkDetectionUnchecked: 49,
};

function tempPath(): string {
  return join(mkdtempSync(join(tmpdir(), "xchain-verify-state-")), "state.json");
}

describe("verify-headers state file", () => {
  it("reads back what it wrote for the same run", async () => {
    const path = tempPath();
    await assertNoVerifyState(path);
    await writeVerifyState(path, STATE);
    expect(await readVerifyState(path, RUN)).toEqual(STATE);
  });

  it("refuses to start over an earlier run's file, to resume without one, or another run's", async () => {
    const path = tempPath();
    await expect(readVerifyState(path, RUN)).rejects.toMatchObject({
      code: VerifyStateErrorCode.MISSING,
      message: `${path}: no state file to resume from (run once without --resume to create it)`,
    });
    await writeVerifyState(path, STATE);
    await expect(assertNoVerifyState(path)).rejects.toMatchObject({code: VerifyStateErrorCode.EXISTS});
    await expect(readVerifyState(path, {...RUN, to: 300})).rejects.toMatchObject({
      code: VerifyStateErrorCode.OTHER_RUN,
      message:
        `${path} records mainnet blocks 100 to 200, not mainnet blocks 100 to 300: resume with the same ` +
        "--network, --from and --to, or use another --state file",
    });
  });

  it("names what is wrong with a file it did not write", async () => {
    const path = tempPath();
    for (const [text, reason] of [
      ["{not json", /is not a verify-headers state file \(.*JSON.*\)/],
      ["[]", /\(no version 1\)/],
      [JSON.stringify({...STATE, next: -1}), /\(next is not a count\)/],
      [JSON.stringify({...STATE, previousHash: 7}), /\(previousHash is not a hash\)/],
    ] as const) {
      writeFileSync(path, text);
      await expect(readVerifyState(path, RUN)).rejects.toMatchObject({
        code: VerifyStateErrorCode.MALFORMED,
        message: expect.stringMatching(reason),
      });
    }
  });
});
