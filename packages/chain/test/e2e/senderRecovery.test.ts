/**
 * Import as a pipeline (an e2e-packages test: it starts worker threads): `recoverAhead` and `SenderRecovery` recover the senders of the blocks ahead
 * in a worker thread, keep the blocks' order, leave a bad signature to the import (which fails that
 * block as it does one block at a time) and turn a worker that stops into a precise error.
 */
import type {Block, Transaction} from "@xchain/primitives";
import type {ChainBuilder} from "@xchain/test-utils";
import {afterEach, describe, expect, it} from "vitest";
import {
  ChainError,
  ChainErrorCode,
  decodeForImport,
  ImportResultKind,
  recoverAhead,
  SenderRecovery,
  transactionsOfBlock,
} from "../../src/index.ts";
import * as helpers from "../helpers.ts";

const recoveries: SenderRecovery[] = [];
afterEach(async () => {
  for (const recovery of recoveries.splice(0)) await recovery.close();
  await helpers.cleanup();
});

function newRecovery(workerScript?: URL): SenderRecovery {
  const recovery = new SenderRecovery({workerScript});
  recoveries.push(recovery);
  return recovery;
}

/**
 * `count` blocks of three transfers each (from three accounts), decoded afresh from their encodings as
 * an import receives them (the builder's own transactions know their senders: it executed them).
 */
async function buildBlocks(builder: ChainBuilder, count: number): Promise<Block[]> {
  const blocks: Block[] = [];
  for (let n = 0; n < count; n++) {
    const transactions = [0, 1, 2].map((i) =>
      helpers.signTx(helpers.cows[i] as (typeof helpers.cows)[number], {
        nonce: BigInt(n),
        to: helpers.cows[3]?.address,
        value: 1n,
        gasPrice: 2n,
      }),
    );
    blocks.push(await builder.buildBlock({transactions}));
  }
  return decodedAll(blocks.map((block) => block.encode()));
}

/** The signed transactions of a block (REMASC excluded). */
function signed(block: Block): Transaction[] {
  return block.transactions.slice(0, -1);
}

function decodedAll(encoded: Uint8Array[]): Block[] {
  return encoded.map((bytes) => decodeForImport(bytes, helpers.regtest) as Block);
}

describe("recoverAhead", () => {
  it("recovers the senders of the blocks ahead in the worker and keeps the source's order", async () => {
    const builder = await helpers.newBuilder();
    const encoded = (await buildBlocks(builder, 6)).map((b) => b.encode());
    const {chain} = await helpers.openChain();
    let pulled = 0;
    const source = (function* () {
      for (const block of decodedAll(encoded)) {
        pulled++;
        yield block;
      }
    })();
    const order: number[] = [];
    const pulledAtFirst: number[] = [];
    for await (const block of recoverAhead(source, newRecovery(), {
      lookahead: 2,
      transactionsOf: transactionsOfBlock,
    })) {
      pulledAtFirst.push(pulled);
      order.push(block.header.number);
      // The signers came from the worker (nothing is left to recover), and they are the senders'.
      expect(signed(block).map((tx) => tx.signerRecoveryInput())).toEqual([undefined, undefined, undefined]);
      expect(signed(block).map((tx) => tx.sender())).toEqual([0, 1, 2].map((i) => helpers.cows[i]?.address));
      expect((await chain.importBlock(block)).kind).toBe(ImportResultKind.IMPORTED_BEST);
    }
    expect(order).toEqual([1, 2, 3, 4, 5, 6]);
    // The first block came out with two more read and sent to the worker behind it.
    expect(pulledAtFirst[0]).toBe(3);
    expect(chain.head().number).toBe(6);
  });

  it("a bad signature in block N+2 fails exactly that block, with the error of an import one block at a time", async () => {
    const builder = await helpers.newBuilder();
    const [first, second, third] = await buildBlocks(builder, 3);
    const [transfer, ...rest] = (third as Block).transactions;
    const bad = await helpers.alterBlock(
      builder,
      third as Block,
      {},
      {
        transactions: [helpers.withUnrecoverableSignature(transfer as Transaction), ...rest],
      },
    );
    const encoded = [first, second, bad].map((b) => (b as Block).encode());

    const oneByOne = await helpers.openChain();
    const expected = [];
    for (const bytes of encoded) expected.push(await oneByOne.chain.importBlock(bytes));

    const piped = await helpers.openChain();
    const results = [];
    const blocks = recoverAhead(decodedAll(encoded), newRecovery(), {
      lookahead: 4,
      transactionsOf: transactionsOfBlock,
    });
    for await (const block of blocks) results.push(await piped.chain.importBlock(block));

    expect(results.map((r) => r.kind)).toEqual([
      ImportResultKind.IMPORTED_BEST,
      ImportResultKind.IMPORTED_BEST,
      ImportResultKind.INVALID_BLOCK,
    ]);
    expect(results).toEqual(expected);
    const failed = results[2];
    expect(failed?.kind === ImportResultKind.INVALID_BLOCK && failed.error.type).toMatchObject({index: 0});
    expect(piped.chain.head().number).toBe(2);
  });

  it("a source that fails (a truncated file) gives every item it read before failing, then its error", async () => {
    const builder = await helpers.newBuilder();
    const blocks = await buildBlocks(builder, 3);
    const truncated = new Error("truncated after block 3");
    const source = (async function* () {
      yield* blocks;
      throw truncated;
    })();
    const seen: number[] = [];
    const piped = recoverAhead(source, newRecovery(), {lookahead: 8, transactionsOf: transactionsOfBlock});
    const error = await (async () => {
      for await (const block of piped) seen.push(block.header.number);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([1, 2, 3]);
    expect(error).toBe(truncated);
  });

  it("bytes that are no block pass through to the import's own decode error", async () => {
    const notABlock = Uint8Array.of(0xc3, 0x01);
    expect(decodeForImport(notABlock, helpers.regtest)).toBe(notABlock);
    expect(transactionsOfBlock(notABlock)).toEqual([]);
  });

  it("a worker that exits fails the batches it held with CHAIN_SENDER_RECOVERY_FAILED, not a hang", async () => {
    const builder = await helpers.newBuilder();
    const blocks = await buildBlocks(builder, 3);
    const recovery = newRecovery(new URL("./exitingWorker.mjs", import.meta.url));
    const failure = await recovery.recover(signed(blocks[0] as Block)).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ChainError);
    expect((failure as ChainError).type).toEqual({
      code: ChainErrorCode.SENDER_RECOVERY_FAILED,
      reason: "the sender recovery worker exited (code 7)",
    });
    // Through the pipeline: the error comes out where the first block would have.
    const seen: number[] = [];
    const piped = recoverAhead(decodedAll(blocks.map((b) => b.encode())), recovery, {
      lookahead: 2,
      transactionsOf: transactionsOfBlock,
    });
    const error = await (async () => {
      for await (const block of piped) seen.push(block.header.number);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([]);
    expect((error as ChainError).code).toBe(ChainErrorCode.SENDER_RECOVERY_FAILED);
  });

  it("close fails what is pending and every later batch", async () => {
    const builder = await helpers.newBuilder();
    const [block] = await buildBlocks(builder, 1);
    const recovery = newRecovery();
    const pending = recovery.recover(signed(block as Block)).catch((e: unknown) => e);
    await recovery.close();
    expect(await pending).toMatchObject({
      type: {code: ChainErrorCode.SENDER_RECOVERY_FAILED, reason: "sender recovery closed"},
    });
    await expect(recovery.recover(signed(block as Block))).rejects.toMatchObject({
      type: {code: ChainErrorCode.SENDER_RECOVERY_FAILED, reason: "sender recovery is closed"},
    });
  });
});
