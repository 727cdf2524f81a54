/** The difficulty a header must carry given its parent (docs/protocol/consensus.md §1, rskj `DifficultyCalculator`). */
import type {Chainspec} from "@xchain/chainspec";
import type {BlockHeader} from "@xchain/primitives";

/** Before RSKIP-97 a gap of this many seconds resets the difficulty to the network minimum. */
const PRIVATE_MINING_GAP_SECONDS = 600;

/** The header fields the formula reads. */
export type DifficultyHeaderFields = Pick<BlockHeader, "number" | "timestamp" | "uncleCount">;
/** The parent fields the formula reads. */
export type DifficultyParentFields = Pick<BlockHeader, "difficulty" | "timestamp">;

/** The exact difficulty of `header` given `parent`: ±parent/divisor toward the (1 + uncles) × duration target. */
export function calculateDifficulty(
  header: DifficultyHeaderFields,
  parent: DifficultyParentFields,
  chainspec: Chainspec,
): bigint {
  const minimum = chainspec.minimumDifficulty(header.number);
  // A fork's first local block (docs/forking.md §4): the upstream's difficulty (mainnet's) is not the
  // fork's CPU miner's to meet.
  const {forkBlockNumber} = chainspec.params;
  if (forkBlockNumber !== undefined && header.number === forkBlockNumber + 1) return minimum;
  // Testnet and regtest never activate RSKIP-97, so this reset stays in force there (docs/protocol/header.md §2).
  if (
    !chainspec.isActive("RSKIP97", header.number) &&
    header.timestamp >= parent.timestamp + PRIVATE_MINING_GAP_SECONDS
  ) {
    return minimum;
  }
  const delta = header.timestamp - parent.timestamp;
  if (delta < 0) return parent.difficulty;
  const target = (1 + header.uncleCount) * chainspec.params.durationLimitSeconds;
  if (target === delta) return parent.difficulty;
  const step = parent.difficulty / chainspec.difficultyBoundDivisor(header.number);
  const adjusted = target > delta ? parent.difficulty + step : parent.difficulty - step;
  // Math.max does not take bigints.
  if (adjusted < minimum) return minimum;
  return adjusted;
}
