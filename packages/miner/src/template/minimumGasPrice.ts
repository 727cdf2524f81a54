/**
 * The minimumGasPrice of the next block (docs/protocol/fees.md §1, rskj `MinimumGasPriceCalculator`,
 * `BlockGasPriceRange`).
 */

/**
 * The target itself when it lies within the parent's band [parent − d, parent + d] (d =
 * floor(parent / 100), or 1 when that is 0; the lower bound clamped at 0); otherwise the band's
 * edge toward the target.
 */
export function nextMinimumGasPrice(parent: bigint, target: bigint): bigint {
  const delta = parent / 100n || 1n;
  const lower = parent > delta ? parent - delta : 0n;
  const upper = parent + delta;
  if (target < lower) return lower;
  if (target > upper) return upper;
  return target;
}
