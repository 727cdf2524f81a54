/**
 * Checks a batch of downloaded headers before any body is asked for: the numbers asked for,
 * linkage (each header's parentHash is the previous header's hash), then the consensus rules a
 * header passes on its own (proof of work and the merged-mining proof among them) and against its
 * parent. Fork-detection data and the body rules need ancestors and bodies: the chain's import
 * checks them.
 */
import type {Chainspec} from "@xchain/chainspec";
import {HeaderError, validateHeaderAgainstParent, validateHeaderStandalone} from "@xchain/consensus";
import {MergedMiningError} from "@xchain/merged-mining";
import type {BlockHeader} from "@xchain/primitives";
import {equalBytes} from "@xchain/utils";
import {errorCode, errorDetail, SyncError, SyncErrorCode} from "./errors.ts";

/** Where a header batch comes from and what it must extend. */
export interface HeaderBatchContext {
  peer: string;
  chainspec: Chainspec;
  nowSeconds: number;
}

/**
 * Throws `SyncError` UNEXPECTED_HEADERS when `headers` are not at `parent.number + 1`, `+ 2`, …;
 * PEER_REORGED when the first does not extend `parent` (the peer's chain changed since `parent`
 * was downloaded, or the common ancestor moved); INVALID_HEADER when a header breaks linkage
 * inside the batch or a consensus rule. Headers before the invalid one are returned in `valid`
 * together with the error, so that what was good can still be imported.
 */
export function checkHeaderBatch(
  headers: readonly BlockHeader[],
  parent: BlockHeader,
  context: HeaderBatchContext,
): {valid: BlockHeader[]; error?: SyncError} {
  const {peer} = context;
  const valid: BlockHeader[] = [];
  let previous = parent;
  for (const [index, header] of headers.entries()) {
    const expected = parent.number + 1 + index;
    if (header.number !== expected) {
      const error = new SyncError({code: SyncErrorCode.UNEXPECTED_HEADERS, peer, expected, actual: header.number});
      return {valid, error};
    }
    if (!equalBytes(header.parentHash, previous.hash())) {
      if (index === 0) return {valid, error: new SyncError({code: SyncErrorCode.PEER_REORGED, peer, number: expected})};
      const detail = `parentHash does not match header ${previous.number}`;
      const error = new SyncError({
        code: SyncErrorCode.INVALID_HEADER,
        peer,
        number: expected,
        cause: "PARENT_HASH_MISMATCH",
        detail,
      });
      return {valid, error};
    }
    try {
      validateHeaderStandalone(header, context.chainspec, {nowSeconds: context.nowSeconds});
      validateHeaderAgainstParent(header, previous, context.chainspec);
    } catch (e) {
      // Anything but a rule's error is a fault of the node, not of the peer.
      if (!(e instanceof HeaderError || e instanceof MergedMiningError)) throw e;
      const error = new SyncError({
        code: SyncErrorCode.INVALID_HEADER,
        peer,
        number: expected,
        cause: errorCode(e),
        detail: errorDetail(e),
      });
      return {valid, error};
    }
    valid.push(header);
    previous = header;
  }
  return {valid};
}
