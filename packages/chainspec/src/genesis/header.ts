/** The genesis header in rskj's exact layout (docs/protocol/header.md §1, docs/protocol/networks.md §2). */
import {
  BlockHeader,
  EMPTY_UNCLES_HASH,
  encodeSigned,
  encodeUnsigned,
  type HeaderEncodingRules,
  LOGS_BLOOM_LENGTH,
} from "@xchain/primitives";
import {hexToBytes} from "@xchain/utils";
import type {GenesisHeaderParams} from "./types.ts";

/**
 * The genesis transaction and receipt roots: the empty trie's root, keccak-256 of RLP("")
 * (docs/protocol/networks.md §2; the same value as `@xchain/state`'s EMPTY_TRIE_ROOT, which this package sits
 * below).
 */
export const GENESIS_EMPTY_TRIE_ROOT: Uint8Array = hexToBytes(
  "56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421",
);

const EMPTY = new Uint8Array(0);
// rskj reads "0x00" for each merged-mining field of the genesis JSON (docs/protocol/networks.md §2).
const ZERO_BYTE = Uint8Array.of(0);

/**
 * The genesis header for `params` with the given state root: zero parentHash, empty uncles and
 * roots, zero bloom, number/gasUsed/paidFees/uncleCount empty, no ummRoot, and the three
 * merged-mining fields each the single byte 0x00. With rskj's state roots it reproduces rskj's
 * genesis hashes; xchain's MPT state root gives xchain's own (docs/protocol/README.md §2).
 */
export function buildGenesisHeader(
  params: GenesisHeaderParams,
  stateRoot: Uint8Array,
  rules: HeaderEncodingRules,
): BlockHeader {
  return BlockHeader.fromRlpItems(
    [
      new Uint8Array(32),
      EMPTY_UNCLES_HASH,
      params.coinbase,
      stateRoot,
      GENESIS_EMPTY_TRIE_ROOT,
      GENESIS_EMPTY_TRIE_ROOT,
      new Uint8Array(LOGS_BLOOM_LENGTH),
      params.difficultyBytes,
      EMPTY,
      params.gasLimitBytes,
      EMPTY,
      encodeUnsigned(BigInt(params.timestamp)),
      params.extraData,
      EMPTY,
      encodeSigned(params.minimumGasPrice),
      EMPTY,
      ZERO_BYTE,
      ZERO_BYTE,
      ZERO_BYTE,
    ],
    rules,
  );
}
