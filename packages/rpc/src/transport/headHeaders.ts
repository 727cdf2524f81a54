/**
 * The head headers of every JSON-RPC answer over HTTP (docs/rpc.md §4.1): `X-Xchain-Head`, the
 * number of the node's best block in decimal, and `X-Xchain-Head-Hash`, its hash, read when the
 * answer is written. A load balancer or a client comparing several nodes sees how far each one is
 * without a request of its own (docs/operations.md §10). The header object is made once per head.
 */
import {bytesToHex} from "@xchain/utils";

/** The head header names. */
export const HEAD_HEADER = "X-Xchain-Head";
export const HEAD_HASH_HEADER = "X-Xchain-Head-Hash";

/** What a browser page may read of an allowed origin's answer beyond the safelisted headers. */
export const EXPOSED_HEADERS = `${HEAD_HEADER}, ${HEAD_HASH_HEADER}`;

/** The head as the chain gives it: the same object until the next head. */
export interface HeadView {
  readonly number: number;
  readonly hash: Uint8Array;
}

/** A function giving the JSON answer's headers (`Content-Type` and the head's), one frozen object per head. */
export function jsonHeadersOfHead(head: () => HeadView): () => Readonly<Record<string, string>> {
  let last: HeadView | undefined;
  let headers: Readonly<Record<string, string>> = {};
  return () => {
    const current = head();
    if (current !== last) {
      last = current;
      headers = Object.freeze({
        "Content-Type": "application/json",
        [HEAD_HEADER]: String(current.number),
        [HEAD_HASH_HEADER]: `0x${bytesToHex(current.hash)}`,
      });
    }
    return headers;
  };
}
