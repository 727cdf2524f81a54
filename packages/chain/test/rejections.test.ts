/**
 * Every rejection path of import: each returns its typed code and
 * leaves the database exactly as it was (every entry of every bucket compared).
 */
import {Chainspec, regtestGenesis} from "@xchain/chainspec";
import {HeaderErrorCode} from "@xchain/consensus";
import {BlockExecutionErrorCode, TransactionInvalidCode} from "@xchain/execution";
import {MergedMiningErrorCode} from "@xchain/merged-mining";
import {Block, BlockDecodeErrorCode, createRemascTransaction, type Transaction} from "@xchain/primitives";
import type {ChainBuilder} from "@xchain/test-utils";
import {afterEach, describe, expect, it} from "vitest";
import {BlockErrorCode, type ImportResult, ImportResultKind} from "../src/index.ts";
import {
  alterBlock,
  cleanup,
  cows,
  newBuilder,
  openChain,
  regtest,
  signTx,
  snapshot,
  type TestChain,
  withUnrecoverableSignature,
} from "./helpers.ts";

afterEach(cleanup);

/** Imports `input` and checks that nothing was written. */
async function importUnchanged(test: TestChain, input: Block | Uint8Array): Promise<ImportResult> {
  const before = await snapshot(test.store);
  const headBefore = test.chain.head();
  const result = await test.chain.importBlock(input);
  expect(await snapshot(test.store)).toEqual(before);
  expect(test.chain.head()).toBe(headBefore);
  return result;
}

function codeOf(result: ImportResult): string {
  if (result.kind !== ImportResultKind.INVALID_BLOCK) throw new Error(`expected INVALID_BLOCK, got ${result.kind}`);
  return result.error.code;
}

/** A chain at block 1 and a valid block 2 carrying a transfer, not yet imported. */
async function setup(): Promise<{test: TestChain; builder: ChainBuilder; block: Block}> {
  const test = await openChain();
  const builder = await newBuilder();
  await test.chain.importBlock(await builder.buildBlock());
  const block = await builder.buildBlock({
    transactions: [signTx(cows[0]!, {nonce: 0n, to: cows[1]!.address, value: 1n, gasPrice: 2n})],
  });
  return {test, builder, block};
}

const OTHER = new Uint8Array(32).fill(0xab);

describe("rejections", () => {
  const headerMismatches: [string, Parameters<typeof alterBlock>[2], string][] = [
    ["stateRoot", {stateRoot: OTHER}, BlockErrorCode.STATE_ROOT_MISMATCH],
    ["receiptTrieRoot", {receiptTrieRoot: OTHER}, BlockErrorCode.RECEIPTS_ROOT_MISMATCH],
    ["logsBloom", {logsBloom: new Uint8Array(256).fill(1)}, BlockErrorCode.LOGS_BLOOM_MISMATCH],
    ["gasUsed", {gasUsed: 21_001n}, BlockErrorCode.GAS_USED_MISMATCH],
    ["paidFees", {paidFees: 1n}, BlockErrorCode.PAID_FEES_MISMATCH],
    ["txTrieRoot", {txTrieRoot: OTHER}, BlockErrorCode.TRANSACTIONS_ROOT_MISMATCH],
    ["unclesHash", {unclesHash: OTHER}, HeaderErrorCode.UNCLES_HASH_MISMATCH],
    ["difficulty", {difficulty: 2n}, HeaderErrorCode.BAD_DIFFICULTY],
    ["gasUsed above gasLimit", {gasUsed: 20_000_000n}, HeaderErrorCode.GAS_USED_ABOVE_LIMIT],
  ];
  for (const [field, changes, code] of headerMismatches) {
    it(`a wrong ${field} is ${code}`, async () => {
      const {test, builder, block} = await setup();
      expect(codeOf(await importUnchanged(test, (await alterBlock(builder, block, changes)).encode()))).toBe(code);
      // The untouched block still imports.
      expect((await test.chain.importBlock(block.encode())).kind).toBe(ImportResultKind.IMPORTED_BEST);
    });
  }

  it("a header changed after sealing fails proof of work (MM_TAG_NOT_FOUND)", async () => {
    const {test, builder, block} = await setup();
    const resealed = await alterBlock(builder, block, {extraData: Uint8Array.of(1)});
    const unsealed = new Block(
      resealed.header.withMergedMining(block.header.mergedMining!, regtest),
      block.transactions,
      block.uncles,
    );
    expect(codeOf(await importUnchanged(test, unsealed.encode()))).toBe(MergedMiningErrorCode.TAG_NOT_FOUND);
  });

  it("bytes that are not a block are BLOCK_DECODE_BAD_RLP", async () => {
    const {test} = await setup();
    expect(codeOf(await importUnchanged(test, Uint8Array.of(0xc3, 0x01)))).toBe(BlockDecodeErrorCode.BAD_RLP);
  });

  it("a bad signature is BLOCK_EXEC_INVALID_TRANSACTION (TX_INVALID_BAD_SIGNATURE)", async () => {
    const {test, builder, block} = await setup();
    const bad = withUnrecoverableSignature(block.transactions[0]!);
    const result = await importUnchanged(
      test,
      (await alterBlock(builder, block, {}, {transactions: [bad, block.transactions[1]!]})).encode(),
    );
    expect(codeOf(result)).toBe(BlockExecutionErrorCode.INVALID_TRANSACTION);
    expect(result.kind === ImportResultKind.INVALID_BLOCK && result.error.type).toMatchObject({
      index: 0,
      reason: TransactionInvalidCode.BAD_SIGNATURE,
    });
  });

  it("a transaction with too little gas is BLOCK_EXEC_INVALID_TRANSACTION (TX_INVALID_INTRINSIC_GAS_TOO_LOW)", async () => {
    const {test, builder, block} = await setup();
    const tooLittleGas = signTx(cows[0]!, {nonce: 0n, to: cows[1]!.address, gasLimit: 20_999n, gasPrice: 2n});
    const result = await importUnchanged(
      test,
      (await alterBlock(builder, block, {}, {transactions: [tooLittleGas, block.transactions[1]!]})).encode(),
    );
    expect(result.kind === ImportResultKind.INVALID_BLOCK && result.error.type).toMatchObject({
      code: BlockExecutionErrorCode.INVALID_TRANSACTION,
      reason: TransactionInvalidCode.INTRINSIC_GAS_TOO_LOW,
    });
  });

  it("a block without the REMASC transaction is BLOCK_REMASC_MISSING", async () => {
    const {test, builder, block} = await setup();
    const altered = await alterBlock(builder, block, {}, {transactions: [block.transactions[0]!]});
    expect(codeOf(await importUnchanged(test, altered.encode()))).toBe(BlockErrorCode.REMASC_MISSING);
  });

  it("a REMASC transaction before the last is BLOCK_REMASC_NOT_LAST (as an object) or a decode error (as bytes)", async () => {
    const {test, builder, block} = await setup();
    const [transfer, remasc] = block.transactions as [Transaction, Transaction];
    const altered = await alterBlock(
      builder,
      block,
      {},
      {transactions: [remasc, transfer, createRemascTransaction(2)]},
    );
    expect(codeOf(await importUnchanged(test, altered))).toBe(BlockErrorCode.REMASC_NOT_LAST);
    expect(codeOf(await importUnchanged(test, altered.encode()))).toBe(BlockDecodeErrorCode.BAD_TRANSACTION);
  });

  it("gas prices below the block's minimum or above 100 × it are BLOCK_GAS_PRICE_BELOW_MINIMUM / ABOVE_CAP", async () => {
    const test = await openChain();
    const builder = await newBuilder();
    // The mgp band of a parent at 0 is [0, 1] (docs/protocol/fees.md §1).
    await test.chain.importBlock(await builder.buildBlock({minimumGasPrice: 1n}));
    const block = await builder.buildBlock();
    const remasc = block.transactions[0]!;
    for (const [gasPrice, code] of [
      [0n, BlockErrorCode.GAS_PRICE_BELOW_MINIMUM],
      [101n, BlockErrorCode.GAS_PRICE_ABOVE_CAP],
    ] as const) {
      const tx = signTx(cows[0]!, {nonce: 0n, to: cows[1]!.address, gasPrice});
      const altered = await alterBlock(builder, block, {}, {transactions: [tx, remasc]});
      expect(codeOf(await importUnchanged(test, altered.encode()))).toBe(code);
    }
  });

  it("a duplicate is EXIST and an orphan is NO_PARENT (not stored)", async () => {
    const {test, builder, block} = await setup();
    await test.chain.importBlock(block.encode());
    expect(await importUnchanged(test, block.encode())).toEqual({
      kind: ImportResultKind.EXIST,
      hash: block.hash(),
      number: 2,
    });
    const child = await builder.buildBlock({parent: await builder.buildBlock()});
    expect(await importUnchanged(test, child.encode())).toEqual({
      kind: ImportResultKind.NO_PARENT,
      hash: child.hash(),
      number: 4,
      parentHash: child.header.parentHash,
    });
  });

  it("a timestamp too far ahead of the local clock is HEADER_TIMESTAMP_IN_FUTURE where the rule applies", async () => {
    // Regtest disables the rule (limit 0, docs/protocol/fees.md §1); the same network with mainnet's 60 s applies it.
    const chainspec = new Chainspec({...regtest.params, newBlockMaxSecondsInTheFuture: 60});
    let now = 0;
    const test = await openChain({chainspec, nowSeconds: () => now});
    const builder = await newBuilder(chainspec, regtestGenesis);
    const block = await builder.buildBlock({timestamp: 100});
    expect(codeOf(await importUnchanged(test, block.encode()))).toBe(HeaderErrorCode.TIMESTAMP_IN_FUTURE);
    now = 40;
    expect((await test.chain.importBlock(block.encode())).kind).toBe(ImportResultKind.IMPORTED_BEST);
  });
});
