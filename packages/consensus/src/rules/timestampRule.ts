import type {Chainspec} from "@xchain/chainspec";
import type {BlockHeader} from "@xchain/primitives";
import {HeaderError, HeaderErrorCode} from "../errors.ts";

/**
 * The timestamp may be at most newBlockMaxSecondsInTheFuture ahead of the local clock (docs/protocol/fees.md §1,
 * rskj `BlockTimeStampValidationRule`). A limit of 0 (regtest) disables the rule.
 */
export function timestampRule(header: BlockHeader, chainspec: Chainspec, nowSeconds: number): void {
  const maxSecondsInFuture = chainspec.params.newBlockMaxSecondsInTheFuture;
  if (maxSecondsInFuture === 0) return;
  if (header.timestamp - nowSeconds > maxSecondsInFuture) {
    throw new HeaderError({
      code: HeaderErrorCode.TIMESTAMP_IN_FUTURE,
      timestamp: header.timestamp,
      nowSeconds,
      maxSecondsInFuture,
    });
  }
}
