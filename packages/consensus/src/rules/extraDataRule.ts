import type {Chainspec} from "@xchain/chainspec";
import type {BlockHeader} from "@xchain/primitives";
import {HeaderError, HeaderErrorCode} from "../errors.ts";

/** extraData must be at most 32 bytes (docs/protocol/fees.md §1, rskj `ExtraDataRule`). */
export function extraDataRule(header: BlockHeader, chainspec: Chainspec): void {
  const maxBytes = chainspec.params.maxExtraDataSize;
  if (header.extraData.length > maxBytes) {
    throw new HeaderError({code: HeaderErrorCode.EXTRA_DATA_TOO_LONG, maxBytes, actualBytes: header.extraData.length});
  }
}
