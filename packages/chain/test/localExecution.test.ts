/**
 * Import with the node's own execution of the block (its miner's template): taken instead of
 * executing the block again only when it ran exactly that block on that state; every rule, the
 * header's commitments to the execution included, is still checked.
 */
import {type BlockExecutionResult, BlockExecutor, blockContextOf, type ExecuteBlockInput} from "@xchain/execution";
import type {Block} from "@xchain/primitives";
import {defaultStateOptions, StateDatabase} from "@xchain/state";
import type {ChainBuilder} from "@xchain/test-utils";
import {afterEach, describe, expect, it} from "vitest";
import {BlockErrorCode, ImportResultKind, type LocalExecution} from "../src/index.ts";
import {cleanup, cows, newBuilder, openChain, regtest, signTx, snapshot, type TestChain} from "./helpers.ts";

afterEach(cleanup);

/** A chain whose executor counts the blocks it executes (the chain's own `BlockExecutor` underneath). */
async function countingChain(): Promise<TestChain & {executed: () => number}> {
  let executed = 0;
  let inner: BlockExecutor | undefined;
  const test = await openChain({
    executor: {
      execute: (input: ExecuteBlockInput): Promise<BlockExecutionResult> => {
        executed++;
        return (inner as BlockExecutor).execute(input);
      },
    },
  });
  inner = new BlockExecutor(
    {},
    {chainspec: regtest, state: new StateDatabase(defaultStateOptions, {store: test.store})},
  );
  return {...test, executed: () => executed};
}

/** Block 1 with two transfers, built as a miner builds it, with what its assembly ran on. */
async function assembledBlock(): Promise<{builder: ChainBuilder; block: Block; local: LocalExecution}> {
  const builder = await newBuilder();
  const parent = builder.genesis.header;
  const transactions = [0n, 1n].map((nonce) =>
    signTx(cows[0]!, {nonce, to: cows[5]!.address, value: 7n + nonce, gasPrice: 1n}),
  );
  const {block, assembled} = await builder.build({transactions});
  const local: LocalExecution = {
    parentHash: parent.hash(),
    parentStateRoot: parent.stateRoot,
    block: blockContextOf(block.header),
    transactions: assembled.transactions,
    result: assembled.result,
  };
  return {builder, block, local};
}

describe("import with the node's own execution", () => {
  it("takes it for exactly this block: no second execution, and its state, receipts and indexes are written", async () => {
    const test = await countingChain();
    const {block, local} = await assembledBlock();

    expect(await test.chain.importBlock(block, local)).toMatchObject({kind: ImportResultKind.IMPORTED_BEST});

    expect(test.executed()).toBe(0);
    const state = await test.chain.stateAt(block.hash());
    expect(await state.getBalance(cows[5]!.address)).toBe(10n ** 30n + 7n + 8n);
    expect(await state.getNonce(cows[0]!.address)).toBe(2n);
    expect((await test.chain.getReceipts(block.hash()))?.map((r) => r.gasUsed)).toEqual([21_000n, 21_000n, 0n]);
    expect(await test.chain.getTransactionLocation(block.transactions[1]!.hash())).toMatchObject({index: 1});
  });

  const others: [string, (local: LocalExecution, block: Block) => LocalExecution][] = [
    ["on another parent", (local) => ({...local, parentHash: new Uint8Array(32).fill(1)})],
    ["on another state", (local) => ({...local, parentStateRoot: new Uint8Array(32).fill(2)})],
    ["at another timestamp", (local) => ({...local, block: {...local.block, timestamp: local.block.timestamp + 1}})],
    ["for another coinbase", (local) => ({...local, block: {...local.block, coinbase: new Uint8Array(20).fill(3)}})],
    ["with another gas limit", (local) => ({...local, block: {...local.block, gasLimit: local.block.gasLimit - 1n}})],
    ["with transactions in another order", (local) => ({...local, transactions: [...local.transactions].reverse()})],
    ["with a transaction less", (local) => ({...local, transactions: local.transactions.slice(1)})],
  ];

  it.each(others)("executes the block when the offered execution ran %s", async (_, change) => {
    const test = await countingChain();
    const {block, local} = await assembledBlock();

    expect(await test.chain.importBlock(block, change(local, block))).toMatchObject({
      kind: ImportResultKind.IMPORTED_BEST,
    });

    expect(test.executed()).toBe(1);
    expect(await (await test.chain.stateAt(block.hash())).getBalance(cows[5]!.address)).toBe(10n ** 30n + 15n);
  });

  it("still checks the header against the execution it takes: a result the header does not commit to is INVALID_BLOCK, nothing written", async () => {
    const test = await countingChain();
    const {block, local} = await assembledBlock();
    const wrong = {...local, result: {...local.result, gasUsed: local.result.gasUsed + 1n}};
    const before = await snapshot(test.store);

    const result = await test.chain.importBlock(block, wrong);

    expect(result).toMatchObject({kind: ImportResultKind.INVALID_BLOCK});
    expect(result.kind === ImportResultKind.INVALID_BLOCK && result.error.code).toBe(BlockErrorCode.GAS_USED_MISMATCH);
    expect(await snapshot(test.store)).toEqual(before);
    expect(test.chain.head().number).toBe(0);
  });
});
