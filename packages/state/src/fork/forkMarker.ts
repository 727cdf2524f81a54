/**
 * The fork marker leaf: every forked state's delta trie holds, under `FORK_MARKER_KEY`, the id of
 * its base, so a delta root commits to its base and never means two states.
 */
import {Account} from "@ethereumjs/util";
import {asBytes, decodeRlpList, encodeRlp} from "@xchain/primitives";
import {keccak256} from "@xchain/utils";
import {applyTrieWrites, type TrieWrite} from "../batchTrie.ts";
import {checkLength} from "../errors.ts";
import {trieWrite} from "../nodeStore.ts";
import type {ReadOnlyTrieDB} from "../readOnlyDb.ts";
import {EMPTY_CODE_HASH, EMPTY_TRIE_ROOT} from "../trie.ts";
import {lookupTrieValue, type TrieNodeSource} from "../trieLookup.ts";
import type {StateCommit} from "../types.ts";
import {FORK_MARKER_KEY} from "./deltaEncoding.ts";
import {NodeCollector} from "./nodeCollector.ts";

/** An account a fork starts with (the fork's initial writes: the REMASC sender's nonce, dev accounts). */
export interface InitialForkAccount {
  nonce: bigint;
  balance: bigint;
  /** Its code hash (the base's code, or code the caller stores); the empty code's by default. */
  codeHash?: Uint8Array;
}

/**
 * The first state of a fork on the base `baseId`: the marker leaf and `accounts` (their storage
 * read from the base). Nothing is written: store `writes` in the caller's batch.
 */
export async function forkStateRoot(
  nodes: ReadOnlyTrieDB,
  baseId: Uint8Array,
  accounts: Iterable<[address: Uint8Array, InitialForkAccount]> = [],
): Promise<StateCommit> {
  const writes: TrieWrite[] = [[FORK_MARKER_KEY, encodeRlp([baseId])]];
  for (const [address, account] of accounts) {
    checkLength(address, 20, "address");
    const leaf = new Account(account.nonce, account.balance, EMPTY_TRIE_ROOT, account.codeHash ?? EMPTY_CODE_HASH);
    writes.push([keccak256(address), leaf.serialize()]);
  }
  const collector = new NodeCollector(nodes);
  const root = await applyTrieWrites(collector, EMPTY_TRIE_ROOT, writes);
  return {root, writes: [...collector.entries].map(([key, value]) => trieWrite(key, value))};
}

/** The base id the state at `root` is forked from, or undefined for an ordinary state. */
export async function baseIdOf(nodes: TrieNodeSource, root: Uint8Array): Promise<Uint8Array | undefined> {
  const leaf = await lookupTrieValue(nodes, root, FORK_MARKER_KEY);
  if (leaf === undefined) return undefined;
  const [id] = decodeRlpList(leaf, "fork marker");
  return asBytes(id, "fork marker base id");
}
