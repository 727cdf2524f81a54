import type {Common} from "@ethereumjs/common";
import {createMPT, type MerklePatriciaTrie} from "@ethereumjs/mpt";
import {type DB, ValueEncoding} from "@ethereumjs/util";
import {keccak256} from "@xchain/utils";

/** Root of the empty trie, keccak256(RLP("")): valid without any stored node. */
export const EMPTY_TRIE_ROOT: Uint8Array = keccak256(Uint8Array.of(0x80));
/** keccak256 of no code: the code hash of an account without code. */
export const EMPTY_CODE_HASH: Uint8Array = keccak256(new Uint8Array(0));

/** The account trie at `root` over `db`, configured as the state manager needs it (docs/dependencies.md §3.2). */
export function openTrie(
  db: DB<string, string | Uint8Array>,
  root: Uint8Array,
  common: Common,
): Promise<MerklePatriciaTrie> {
  return createMPT({db, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, common, root});
}
