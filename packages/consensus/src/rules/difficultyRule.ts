import type {Chainspec} from "@xchain/chainspec";
import type {BlockHeader} from "@xchain/primitives";
import {calculateDifficulty} from "../difficulty.ts";
import {HeaderError, HeaderErrorCode} from "../errors.ts";

/** The difficulty must equal the docs/protocol/consensus.md §1 formula exactly (rskj `BlockDifficultyRule`). */
export function difficultyRule(header: BlockHeader, parent: BlockHeader, chainspec: Chainspec): void {
  const expected = calculateDifficulty(header, parent, chainspec);
  if (header.difficulty !== expected) {
    throw new HeaderError({code: HeaderErrorCode.BAD_DIFFICULTY, expected, actual: header.difficulty});
  }
}
