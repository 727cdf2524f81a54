/**
 * A branch that forks below the retention window (docs/operations.md §12): its first block passes
 * the rules that need no state and comes back PARENT_STATE_PRUNED, typed, naming the fork point and
 * the oldest state served; nothing is stored and the head stays. A block of such a branch that breaks
 * a rule is still INVALID_BLOCK (the rules run first), and a branch forking inside the window imports.
 */
import {Block} from "@xchain/primitives";
import {StateErrorCode} from "@xchain/state";
import {bytesToHex} from "@xchain/utils";
import {afterEach, describe, expect, it} from "vitest";
import {type ImportResult, ImportResultKind} from "../../src/index.ts";
import {cleanup, newBuilder, openTempStore} from "../helpers.ts";
import {openRetainingChain} from "./pruneHelpers.ts";

afterEach(cleanup);

/** A chain keeping 4 states, 12 blocks imported and collected, and the builder that made them. */
async function prunedChain() {
  const store = await openTempStore();
  const chain = await openRetainingChain(store, 4);
  const builder = await newBuilder();
  const blocks = await builder.buildChain(12);
  for (const block of blocks) {
    expect((await chain.importBlock(block.encode())).kind).toBe(ImportResultKind.IMPORTED_BEST);
    await chain.collectorIdle();
  }
  return {chain, builder, blocks};
}

describe("a branch forking below the retention window", () => {
  it("is refused PARENT_STATE_PRUNED, typed and precise, without storing it or moving the head", async () => {
    const {chain, builder, blocks} = await prunedChain();
    const head = chain.head();
    const side = await builder.buildBlock({parent: blocks[2]!.hash(), extraData: Uint8Array.of(1)});
    const results: ImportResult[] = [];
    chain.events.on("import", ({result}) => results.push(result));

    const result = await chain.importBlock(side);

    expect(result.kind).toBe(ImportResultKind.PARENT_STATE_PRUNED);
    if (result.kind !== ImportResultKind.PARENT_STATE_PRUNED) return;
    expect(result.number).toBe(4);
    expect(bytesToHex(result.hash)).toBe(bytesToHex(side.hash()));
    expect(result.error.type).toEqual({code: StateErrorCode.PRUNED, block: 3, oldestBlock: 9});
    expect(result.error.message).toContain("the oldest block whose state is served is 9");
    expect(await chain.getHeader(side.hash())).toBeUndefined();
    expect(bytesToHex(chain.head().hash)).toBe(bytesToHex(head.hash));
    // The import event carries it, for the metrics.
    expect(results.map((r) => r.kind)).toEqual([ImportResultKind.PARENT_STATE_PRUNED]);
  });

  it("answers INVALID_BLOCK for a block of it that breaks a rule needing no state", async () => {
    const {chain, builder, blocks} = await prunedChain();
    const side = await builder.buildBlock({parent: blocks[2]!.hash(), extraData: Uint8Array.of(1)});
    // Without its REMASC transaction the body breaks a body rule.
    const broken = new Block(side.header, [], side.uncles);
    expect((await chain.importBlock(broken)).kind).toBe(ImportResultKind.INVALID_BLOCK);
  });

  it("imports a branch forking inside the window", async () => {
    const {chain, builder, blocks} = await prunedChain();
    const side = await builder.buildBlock({parent: blocks[9]!.hash(), extraData: Uint8Array.of(1)});
    expect((await chain.importBlock(side)).kind).toBe(ImportResultKind.IMPORTED_NOT_BEST);
  });
});
