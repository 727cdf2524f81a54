/** The gas limit of the next block (docs/protocol/fees.md §1, rskj `GasLimitCalculator`). */

/** What the calculation reads: the parent's gas, the network's bounds and the miner's target. */
export interface GasLimitInput {
  parentGasLimit: bigint;
  parentGasUsed: bigint;
  /** The network's minimum (3,000,000). */
  minGasLimit: bigint;
  /** The divisor of the allowed step (1024). */
  boundDivisor: bigint;
  targetGasLimit: bigint;
  forceTarget: boolean;
}

/**
 * Forced: one step of floor(parent / 1024) toward the target, not past it. Otherwise rskj's
 * usage rule, parent − step + floor(floor(parentGasUsed · 3 / 2) / 1024), clamped to [minimum,
 * target]; xchain then keeps that result inside the parent's band so the block stays valid
 * (rskj would produce an out-of-band limit when the target is far from the parent).
 */
export function nextGasLimit(input: GasLimitInput): bigint {
  const {parentGasLimit: parent, boundDivisor: divisor, minGasLimit} = input;
  const target = input.targetGasLimit < minGasLimit ? minGasLimit : input.targetGasLimit;
  const step = parent / divisor;
  if (input.forceTarget) {
    if (target < parent) return max(parent - step, target);
    return min(parent + step, target);
  }
  const contribution = (input.parentGasUsed * 3n) / 2n / divisor;
  const proposed = min(max(parent - step + contribution, minGasLimit), target);
  const lower = (parent * (divisor - 1n)) / divisor;
  const upper = (parent * (divisor + 1n)) / divisor;
  return min(max(proposed, lower), upper);
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
