/**
 * The uncles commitment of a header (docs/protocol/header.md §6): keccak-256 of the RLP list of the uncles'
 * full encodings.
 */
import {keccak256} from "@xchain/utils";
import type {BlockHeader} from "../header/header.ts";
import {decodeRlp, encodeRlp, type RlpItem} from "../rlp/rlp.ts";

/** The RLP item of a header's full encoding (merged-mining fields included), to nest it in a list. */
export function fullHeaderItem(header: BlockHeader): RlpItem {
  return decodeRlp(header.encode());
}

/** The unclesHash a header must carry for these uncles. */
export function unclesHash(uncles: readonly BlockHeader[]): Uint8Array {
  return keccak256(encodeRlp(uncles.map(fullHeaderItem)));
}

/** unclesHash of a block without uncles: keccak-256 of the empty list `0xc0` (1dcc4de8…9347). */
export const EMPTY_UNCLES_HASH: Uint8Array = unclesHash([]);
