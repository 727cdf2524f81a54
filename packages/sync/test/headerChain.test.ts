/** The checks a header batch passes before any body is asked for. */
import {headerValues} from "@xchain/test-utils";
import {beforeAll, describe, expect, it} from "vitest";
import {checkHeaderBatch} from "../src/headerChain.ts";
import {SyncError, SyncErrorCode} from "../src/index.ts";
import {type Fixture, fixture} from "./support/fixture.ts";
import {regtest} from "./support/testNode.ts";

let f: Fixture;
const context = {peer: "p", chainspec: regtest, nowSeconds: 2_000_000_000};

beforeAll(async () => {
  f = await fixture();
});

function codeOf(error: SyncError | undefined): unknown {
  return error?.type;
}

describe("checkHeaderBatch", () => {
  it("accepts consecutive valid headers extending the parent", () => {
    const headers = f.main.slice(10, 20).map((b) => b.header);
    const result = checkHeaderBatch(headers, f.main[9]!.header, context);
    expect(result.error).toBeUndefined();
    expect(result.valid).toHaveLength(10);
  });

  it("refuses headers at other numbers than asked", () => {
    const result = checkHeaderBatch([f.main[12]!.header], f.main[9]!.header, context);
    expect(codeOf(result.error)).toEqual({code: SyncErrorCode.UNEXPECTED_HEADERS, peer: "p", expected: 11, actual: 13});
    expect(result.valid).toEqual([]);
  });

  it("calls a first header on another branch a reorg, a break inside the batch an invalid header", () => {
    const reorged = checkHeaderBatch([f.main[11]!.header], f.alt[0]!.header, context);
    expect(codeOf(reorged.error)).toEqual({code: SyncErrorCode.PEER_REORGED, peer: "p", number: 12});

    const broken = checkHeaderBatch([f.main[10]!.header, f.alt[1]!.header], f.main[9]!.header, context);
    expect(broken.error?.type).toMatchObject({
      code: SyncErrorCode.INVALID_HEADER,
      number: 12,
      cause: "PARENT_HASH_MISMATCH",
    });
    expect(broken.valid.map((h) => h.number)).toEqual([11]);
  });

  it("runs the consensus rules: against the parent, and the merged-mining proof", () => {
    const block = f.main[10]!;
    const wrongDifficulty = f.builder.sealBlock(
      {...headerValues(block.header), difficulty: block.header.difficulty + 1n},
      block.transactions,
    ).header;
    const bad = checkHeaderBatch([wrongDifficulty], f.main[9]!.header, context);
    expect(bad.error).toBeInstanceOf(SyncError);
    expect(bad.error?.type).toMatchObject({
      code: SyncErrorCode.INVALID_HEADER,
      number: 11,
      cause: "HEADER_BAD_DIFFICULTY",
    });

    const forged = block.header.withMergedMining(f.main[9]!.header.mergedMining!, regtest);
    const unproven = checkHeaderBatch([forged], f.main[9]!.header, context);
    expect(unproven.error?.type).toMatchObject({code: SyncErrorCode.INVALID_HEADER, number: 11});
    expect(unproven.error?.type).toMatchObject({cause: expect.stringMatching(/^MM_/)});
  });
});
