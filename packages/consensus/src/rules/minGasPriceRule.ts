import type {BlockHeader} from "@xchain/primitives";
import {HeaderError, HeaderErrorCode} from "../errors.ts";

/**
 * minimumGasPrice must lie in [parent − d, parent + d] with d = floor(parent / 100), or 1 when that is 0; the
 * lower bound is clamped at 0 (docs/protocol/fees.md §1, rskj `PrevMinGasPriceRule`, `BlockGasPriceRange`).
 */
export function minGasPriceRule(header: BlockHeader, parent: BlockHeader): void {
  const center = parent.minimumGasPrice;
  const delta = center / 100n || 1n;
  const min = center > delta ? center - delta : 0n;
  const max = center + delta;
  const actual = header.minimumGasPrice;
  if (actual < min || actual > max) {
    throw new HeaderError({code: HeaderErrorCode.MIN_GAS_PRICE_OUT_OF_BAND, min, max, actual});
  }
}
