/**
 * How a forked state's delta trie encodes what the node wrote over its base (docs/architecture.md,
 * "The forked state"). The account trie is keyed by keccak256(address) as always; its values are
 * account RLPs whose storage root is the root of the account's *storage delta*, or a tombstone.
 */
import {createAccountFromRLP} from "@ethereumjs/util";
import {equalBytes} from "@xchain/utils";
import {EMPTY_TRIE_ROOT} from "../trie.ts";

/** The account-trie key of the fork marker leaf (no address hashes to it in practice). */
export const FORK_MARKER_KEY: Uint8Array = new Uint8Array(32).fill(0xfe);

/** The storage-delta key saying "slots absent here read zero, not the base" (storage cleared). */
export const WIPED_KEY: Uint8Array = new Uint8Array(32).fill(0xff);
export const WIPED_VALUE: Uint8Array = Uint8Array.of(0x01);

/** An account deleted locally: the RLP empty list, never a valid account. */
export const ACCOUNT_TOMBSTONE: Uint8Array = Uint8Array.of(0xc0);

/** A slot zeroed locally: RLP of a value is never 0x00 after unpadding. */
export const SLOT_TOMBSTONE: Uint8Array = Uint8Array.of(0x00);

/** What the delta holds for one account. */
export type DeltaAccount =
  | {kind: "none"}
  | {kind: "deleted"}
  | {kind: "written"; nonce: bigint; balance: bigint; codeHash: Uint8Array; storageDelta: Uint8Array};

export const NO_DELTA: DeltaAccount = {kind: "none"};
const DELETED: DeltaAccount = {kind: "deleted"};

/** The delta entry of a raw account-trie leaf value (undefined: no leaf). */
export function decodeDeltaAccount(leaf: Uint8Array | undefined): DeltaAccount {
  if (leaf === undefined) return NO_DELTA;
  if (leaf.length === 1 && leaf[0] === 0xc0) return DELETED;
  const account = createAccountFromRLP(leaf);
  return {
    kind: "written",
    nonce: account.nonce,
    balance: account.balance,
    codeHash: account.codeHash,
    storageDelta: account.storageRoot,
  };
}

/** Whether a storage delta says nothing: every slot reads from the base. */
export function isEmptyDelta(storageDelta: Uint8Array): boolean {
  return equalBytes(storageDelta, EMPTY_TRIE_ROOT);
}
