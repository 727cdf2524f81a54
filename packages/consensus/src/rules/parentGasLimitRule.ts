import type {Chainspec} from "@xchain/chainspec";
import type {BlockHeader} from "@xchain/primitives";
import {HeaderError, HeaderErrorCode} from "../errors.ts";

/**
 * gasLimit must lie in [floor(parent·1023/1024), floor(parent·1025/1024)] (docs/protocol/fees.md §1, rskj
 * `BlockParentGasLimitRule`; the divisor is the network's gasLimitBoundDivisor).
 */
export function parentGasLimitRule(header: BlockHeader, parent: BlockHeader, chainspec: Chainspec): void {
  const divisor = chainspec.params.gasLimitBoundDivisor;
  const min = (parent.gasLimit * (divisor - 1n)) / divisor;
  const max = (parent.gasLimit * (divisor + 1n)) / divisor;
  const actual = header.gasLimit;
  if (actual < min || actual > max) {
    throw new HeaderError({code: HeaderErrorCode.GAS_LIMIT_OUT_OF_BAND, min, max, actual});
  }
}
