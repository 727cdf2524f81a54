import type {Chainspec} from "@xchain/chainspec";
import type {BlockHeader} from "@xchain/primitives";
import {HeaderError, HeaderErrorCode} from "../errors.ts";

/** gasLimit must be at least the network minimum, 3,000,000 (docs/protocol/fees.md §1, rskj `GasLimitRule`). */
export function gasLimitRule(header: BlockHeader, chainspec: Chainspec): void {
  const minimum = chainspec.params.minGasLimit;
  if (header.gasLimit < minimum) {
    throw new HeaderError({code: HeaderErrorCode.GAS_LIMIT_BELOW_MINIMUM, minimum, actual: header.gasLimit});
  }
}
