/** Uncles (docs/protocol/consensus.md §3): inclusion, total difficulty, and the uncle rules through import. */
import {HeaderErrorCode} from "@xchain/consensus";
import {afterEach, describe, expect, it} from "vitest";
import {ImportResultKind} from "../src/index.ts";
import {cleanup, newBuilder, openChain, snapshot} from "./helpers.ts";

afterEach(cleanup);

describe("uncles", () => {
  it("a block with uncles adds their difficulty to the total, and stores them", async () => {
    const {chain} = await openChain();
    const builder = await newBuilder();
    const b1 = await builder.buildBlock();
    const sibling = await builder.buildBlock({parent: builder.genesis, extraData: Uint8Array.of(1)});
    const b2 = await builder.buildBlock({parent: b1, uncles: [sibling.header]});
    for (const block of [b1, b2]) {
      expect((await chain.importBlock(block.encode())).kind).toBe(ImportResultKind.IMPORTED_BEST);
    }
    expect(chain.head().totalDifficulty).toBe(4n);
    expect((await chain.getBlock(b2.hash()))?.uncles.map((u) => u.hash())).toEqual([sibling.hash()]);
  });

  it("blockHashesAt lists every stored block of a height, one stored after the height was read included", async () => {
    const {chain} = await openChain();
    const builder = await newBuilder();
    const b1 = await builder.buildBlock();
    await chain.importBlock(b1);
    expect(await chain.blockHashesAt(1)).toEqual([b1.hash()]);
    const siblings = [1, 2].map((n) => builder.buildBlock({parent: builder.genesis, extraData: Uint8Array.of(n)}));
    for (const sibling of await Promise.all(siblings)) {
      expect((await chain.importBlock(sibling)).kind).toBe(ImportResultKind.IMPORTED_NOT_BEST);
    }
    // Asked while a sibling is being written, and after.
    const late = await builder.buildBlock({parent: builder.genesis, extraData: Uint8Array.of(3)});
    const [during] = await Promise.all([chain.blockHashesAt(1), chain.importBlock(late)]);
    expect(during.length).toBeGreaterThanOrEqual(3);
    const expected = [b1, ...(await Promise.all(siblings)), late].map((b) => b.hash());
    const sorted = (hashes: Uint8Array[]) => hashes.map((h) => Buffer.from(h).toString("hex")).sort();
    expect(sorted(await chain.blockHashesAt(1))).toEqual(sorted(expected));
    expect(await chain.blockHashesAt(2)).toEqual([]);
  });

  it("refuses an uncle already included by an ancestor and an uncle that is an ancestor", async () => {
    const test = await openChain();
    const builder = await newBuilder();
    const b1 = await builder.buildBlock();
    const sibling = await builder.buildBlock({parent: builder.genesis, extraData: Uint8Array.of(1)});
    const b2 = await builder.buildBlock({parent: b1, uncles: [sibling.header]});
    for (const block of [b1, b2]) await test.chain.importBlock(block.encode());
    const cases = [
      [await builder.buildBlock({parent: b2, uncles: [sibling.header]}), HeaderErrorCode.UNCLE_ALREADY_INCLUDED],
      [await builder.buildBlock({parent: b2, uncles: [b1.header]}), HeaderErrorCode.UNCLE_IS_ANCESTOR],
    ] as const;
    for (const [block, code] of cases) {
      const before = await snapshot(test.store);
      const result = await test.chain.importBlock(block.encode());
      expect(result.kind === ImportResultKind.INVALID_BLOCK && result.error.code).toBe(code);
      expect(await snapshot(test.store)).toEqual(before);
    }
  });
});
