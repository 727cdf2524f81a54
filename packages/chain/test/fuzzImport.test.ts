/**
 * Random corruption of a valid block's bytes: import never
 * throws, and whatever it answers, a rejected block leaves the database exactly as it was.
 */

import {Block} from "@xchain/primitives";
import {equalBytes} from "@xchain/utils";
import fc from "fast-check";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {ImportResultKind} from "../src/index.ts";
import {cleanup, cows, newBuilder, openChain, regtest, signTx, snapshot, type TestChain} from "./helpers.ts";

let test: TestChain;
let valid: Uint8Array;

beforeAll(async () => {
  test = await openChain();
  const builder = await newBuilder();
  await test.chain.importBlock(await builder.buildBlock());
  const block = await builder.buildBlock({
    transactions: [
      signTx(cows[0]!, {nonce: 0n, to: cows[1]!.address, value: 5n, gasPrice: 1n}),
      signTx(cows[2]!, {nonce: 0n, to: cows[3]!.address, value: 7n, gasPrice: 1n}),
    ],
  });
  valid = block.encode();
});

afterAll(cleanup);

describe("import of corrupted blocks", () => {
  it("answers every corruption with a result, writing nothing unless the block is valid", async () => {
    const original = Block.decode(valid, {rules: regtest, chainId: regtest.params.chainId});
    let before = await snapshot(test.store);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(), fc.integer({min: 1, max: 255})), {minLength: 1, maxLength: 4}),
        fc.option(fc.nat(), {nil: undefined}),
        async (flips, truncateAt) => {
          const bytes = Uint8Array.from(valid);
          for (const [position, xor] of flips) bytes[position % bytes.length]! ^= xor;
          const input = truncateAt === undefined ? bytes : bytes.subarray(0, truncateAt % bytes.length);
          const result = await test.chain.importBlock(input);
          if (result.kind === ImportResultKind.IMPORTED_BEST || result.kind === ImportResultKind.IMPORTED_NOT_BEST) {
            // At regtest difficulty a third of all Bitcoin headers meet the target, so a flip in the
            // header's unchecked bytes (version, time, bits) can yield another valid proof of the
            // same block content. Nothing else may get through.
            const imported = Block.decode(input, {rules: regtest, chainId: regtest.params.chainId});
            expect(
              equalBytes(imported.header.baseHashForMergedMining(), original.header.baseHashForMergedMining()),
            ).toBe(true);
            expect(equalBytes(imported.header.mergedMining!.coinbase, original.header.mergedMining!.coinbase)).toBe(
              true,
            );
            before = await snapshot(test.store);
            return;
          }
          expect(await snapshot(test.store)).toEqual(before);
        },
      ),
      {numRuns: 150},
    );
  });
});
