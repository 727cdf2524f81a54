/**
 * The two conversions between a header and execution: `blockContextOf` (the context of the block a
 * header heads: block import, eth_call) and `assembledHeaderValues` (the header of an assembled
 * block: the miner's template, the test chain builder).
 */
import {getChainspec} from "@xchain/chainspec";
import {BlockHeader, EMPTY_UNCLES_HASH, type HeaderValues, unclesHash} from "@xchain/primitives";
import {describe, expect, it} from "vitest";
import {
  assembledHeaderValues,
  type BlockExecutionResult,
  blockContextOf,
  type ExecutionBlockContext,
} from "../src/index.ts";

const bytes = (length: number, fill: number) => new Uint8Array(length).fill(fill);

const context: ExecutionBlockContext = {
  number: 7,
  timestamp: 1_700_000_000,
  coinbase: bytes(20, 0xcb),
  difficulty: 123_456n,
  gasLimit: 6_800_000n,
  minimumGasPrice: 59_000n,
};

const result: BlockExecutionResult = {
  stateRoot: bytes(32, 1),
  receiptsRoot: bytes(32, 2),
  transactionsRoot: bytes(32, 3),
  logsBloom: bytes(256, 4),
  gasUsed: 21_000n,
  paidFees: 21_000n * 59_000n,
  receipts: [],
  outcomes: [],
  stateWrites: [],
};

const parentHash = bytes(32, 9);
const regtest = getChainspec("regtest");

describe("assembledHeaderValues", () => {
  it("takes the context's fields and the result's commitments, with an empty ummRoot where the height has one", () => {
    const values = assembledHeaderValues(context, result, {parentHash, uncles: [], extraData: bytes(3, 5)}, regtest);
    expect(values).toEqual({
      parentHash,
      unclesHash: EMPTY_UNCLES_HASH,
      coinbase: context.coinbase,
      stateRoot: result.stateRoot,
      txTrieRoot: result.transactionsRoot,
      receiptTrieRoot: result.receiptsRoot,
      logsBloom: result.logsBloom,
      difficulty: context.difficulty,
      number: context.number,
      gasLimit: context.gasLimit,
      gasUsed: result.gasUsed,
      timestamp: context.timestamp,
      extraData: bytes(3, 5),
      paidFees: result.paidFees,
      minimumGasPrice: context.minimumGasPrice,
      uncleCount: 0,
      ummRoot: new Uint8Array(0),
    } satisfies HeaderValues);
  });

  it("hashes and counts the uncles, and leaves ummRoot out before RSKIP-UMM", () => {
    const uncle = BlockHeader.fromValues(
      assembledHeaderValues({...context, number: 0}, result, {parentHash, uncles: [], extraData: bytes(0, 0)}, regtest),
      regtest,
    );
    const values = assembledHeaderValues(
      {...context, number: 0},
      result,
      {parentHash, uncles: [uncle], extraData: bytes(0, 0)},
      regtest,
    );
    expect(values.ummRoot).toBeUndefined();
    expect([values.unclesHash, values.uncleCount]).toEqual([unclesHash([uncle]), 1]);
  });
});

describe("blockContextOf", () => {
  it("is the context a header was assembled on", () => {
    const header = BlockHeader.fromValues(
      assembledHeaderValues(context, result, {parentHash, uncles: [], extraData: bytes(0, 0)}, regtest),
      regtest,
    );
    expect(blockContextOf(header)).toEqual(context);
  });
});
