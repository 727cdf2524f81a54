import type {Chainspec} from "@xchain/chainspec";
import type {BlockHeader} from "@xchain/primitives";
import {HeaderError, HeaderErrorCode} from "../errors.ts";

/**
 * The timestamp must be strictly greater than the parent's (docs/protocol/fees.md §1, the parent half of rskj
 * `BlockTimeStampValidationRule`). Like the rest of that rule it is off when
 * newBlockMaxSecondsInTheFuture is 0 (regtest).
 */
export function parentTimestampRule(header: BlockHeader, parent: BlockHeader, chainspec: Chainspec): void {
  if (chainspec.params.newBlockMaxSecondsInTheFuture === 0) return;
  if (header.timestamp <= parent.timestamp) {
    throw new HeaderError({
      code: HeaderErrorCode.TIMESTAMP_NOT_AFTER_PARENT,
      parentTimestamp: parent.timestamp,
      timestamp: header.timestamp,
    });
  }
}
