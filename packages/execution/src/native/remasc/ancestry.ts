/**
 * What block N's REMASC transaction reads of its own chain (docs/protocol/native-contracts.md §11.1;
 * rskj `Remasc.processMinersFees`, `IndexedBlockStore.getSiblingsFromBlock`): the processed block
 * `N − maturity` and its siblings, the uncles at its height included by the 7 blocks above it. The one
 * place that decides which block REMASC processes; import, the miner, the test chain builder and trace
 * replays all build their chain view's `remasc` with `remascAncestry`.
 */
import type {Chainspec} from "@xchain/chainspec";
import {BlockExecutionError, BlockExecutionErrorCode} from "../../errors.ts";

/** The fields of a header REMASC reads (a `BlockHeader` has them). */
export interface RemascHeader {
  number: number;
  coinbase: Uint8Array;
  paidFees: bigint;
  uncleCount: number;
  hash(): Uint8Array;
}

/** An uncle at the processed block's height, and the block that included it (rskj `Sibling`). */
export interface RemascSibling {
  hash: Uint8Array;
  coinbase: Uint8Array;
  paidFees: bigint;
  uncleCount: number;
  includedBlockCoinbase: Uint8Array;
  includedHeight: number;
}

/** The blocks REMASC reads when block N executes. */
export interface RemascAncestry {
  /** Block N − maturity: its fees join the reward pool, and its coinbase is paid. */
  processing: RemascHeader;
  /**
   * Its siblings in rskj's order (the including blocks by ascending height, each block's uncles in list
   * order); empty while N − maturity < syntheticSpan, when nothing is paid and rskj reads none.
   */
  siblings: RemascSibling[];
}

/** A block of the executing block's own chain, at most its parent, with the uncles it includes. */
export type RemascBlockReader = (
  blockNumber: number,
) => Promise<{header: RemascHeader; uncles: readonly RemascHeader[]} | undefined>;

/**
 * The ancestry block `blockNumber`'s REMASC reads through `read`, or undefined when it processes no
 * block: while `blockNumber − maturity < 1`, and on a fork (`forkNumber` = F) when that block is at or
 * below F, whose fees the upstream's own REMASC accounts for (docs/forking.md §3.1).
 */
export async function remascAncestry(
  chainspec: Chainspec,
  blockNumber: number,
  forkNumber: number | undefined,
  read: RemascBlockReader,
): Promise<RemascAncestry | undefined> {
  const {remascMaturity, uncleGenerationLimit, remasc} = chainspec.params;
  const candidate = blockNumber - remascMaturity;
  if (candidate < 1 || candidate <= (forkNumber ?? -1)) return undefined;
  const processing = (await readBlock(read, candidate)).header;
  if (BigInt(candidate) < remasc.syntheticSpan) return {processing, siblings: []};
  const siblings: RemascSibling[] = [];
  // The window above the processed block, lowest first (rskj pays siblings in chain order).
  for (let n = candidate + 1; n <= candidate + uncleGenerationLimit && n < blockNumber; n++) {
    const {header, uncles} = await readBlock(read, n);
    for (const uncle of uncles) {
      if (uncle.number !== candidate) continue;
      siblings.push({
        hash: uncle.hash(),
        coinbase: uncle.coinbase,
        paidFees: uncle.paidFees,
        uncleCount: uncle.uncleCount,
        includedBlockCoinbase: header.coinbase,
        includedHeight: header.number,
      });
    }
  }
  return {processing, siblings};
}

async function readBlock(
  read: RemascBlockReader,
  blockNumber: number,
): Promise<{header: RemascHeader; uncles: readonly RemascHeader[]}> {
  const block = await read(blockNumber);
  if (block === undefined) {
    throw new BlockExecutionError(
      {code: BlockExecutionErrorCode.REMASC_ANCESTOR_MISSING, blockNumber},
      `REMASC needs block ${blockNumber} of the executing block's chain, which is not stored`,
    );
  }
  return block;
}
