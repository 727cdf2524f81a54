import type {Chainspec} from "@xchain/chainspec";
import type {BlockHeader} from "@xchain/primitives";
import {HeaderError, HeaderErrorCode} from "../errors.ts";

/**
 * The ummRoot field must be present exactly from the RSKIP-UMM height on (docs/protocol/header.md §1,
 * docs/protocol/header.md §2; rskj's
 * `BlockFactory` expects the element count of the height). Its length (empty or 20 bytes) is
 * already enforced by decoding.
 */
export function ummRootRule(header: BlockHeader, chainspec: Chainspec): void {
  const expectedPresent = chainspec.hasUmmRoot(header.number);
  const actualPresent = header.ummRoot !== undefined;
  if (expectedPresent !== actualPresent) {
    throw new HeaderError({code: HeaderErrorCode.UMM_ROOT_PRESENCE, expectedPresent, actualPresent});
  }
}
