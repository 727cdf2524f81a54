/**
 * Fork-detection data (RSKIP-110, docs/protocol/header.md §5) through import: blocks from 449 on commit to
 * their ancestors.
 */
import {HeaderErrorCode} from "@xchain/consensus";
import {bitcoinBlockHash, cpvHeights, FORK_DETECTION_MIN_BLOCK} from "@xchain/merged-mining";
import {Block} from "@xchain/primitives";
import {headerValues, sealHeader} from "@xchain/test-utils";
import {afterEach, describe, expect, it} from "vitest";
import {ImportResultKind} from "../src/index.ts";
import {cleanup, newBuilder, openChain, regtest, snapshot} from "./helpers.ts";

afterEach(cleanup);

describe("fork-detection data", () => {
  it("imports blocks past 449 whose hashForMergedMining carries the data, and refuses wrong data", async () => {
    const test = await openChain();
    const builder = await newBuilder();
    const blocks = await builder.buildChain(FORK_DETECTION_MIN_BLOCK + 1);
    for (const block of blocks) {
      const result = await test.chain.importBlock(block.encode());
      expect(result.kind, `block ${block.header.number}`).toBe(ImportResultKind.IMPORTED_BEST);
    }
    const next = await builder.buildBlock();
    // The same block committing to data computed with another CPV ancestor, one whose CPV byte differs.
    const cpv = cpvHeights(next.header.number)[0]!;
    const cpvByte = (n: number) => bitcoinBlockHash(blocks[n - 1]!.header.mergedMining!.bitcoinHeader)[0];
    const other = blocks.find((b) => cpvByte(b.header.number) !== cpvByte(cpv))!.header;
    const wrong = sealHeader(
      headerValues(next.header),
      (n) => (n === cpv ? other : builder.blockAt(n, blocks.at(-1))?.header),
      regtest,
    );
    const before = await snapshot(test.store);
    const result = await test.chain.importBlock(new Block(wrong, next.transactions, next.uncles).encode());
    expect(result.kind === ImportResultKind.INVALID_BLOCK && result.error.code).toBe(
      HeaderErrorCode.FORK_DETECTION_DATA_MISMATCH,
    );
    expect(await snapshot(test.store)).toEqual(before);
    expect((await test.chain.importBlock(next.encode())).kind).toBe(ImportResultKind.IMPORTED_BEST);
  });
});
