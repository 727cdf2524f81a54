/**
 * A forked session's commit: the overlay's net writes become delta-trie writes (encoding in
 * deltaEncoding.ts). The root depends on the writes only, never on what was read, so a block
 * executed twice (assembly, then import) gives the same root.
 */
import {RLP} from "@ethereumjs/rlp";
import {CODEHASH_PREFIX} from "@ethereumjs/statemanager";
import {Account} from "@ethereumjs/util";
import {bytesToHex, concatBytes, hexToBytes, keccak256} from "@xchain/utils";
import {applyTrieWrites, type TrieWrite} from "../batchTrie.ts";
import type {NetWrites} from "../overlayStateManager.ts";
import type {ReadOnlyTrieDB} from "../readOnlyDb.ts";
import {EMPTY_CODE_HASH, EMPTY_TRIE_ROOT} from "../trie.ts";
import {ACCOUNT_TOMBSTONE, SLOT_TOMBSTONE, WIPED_KEY, WIPED_VALUE} from "./deltaEncoding.ts";
import type {ForkStateReader} from "./forkStateReader.ts";
import {NodeCollector} from "./nodeCollector.ts";

/** The delta root after `writes` on the state `reader` reads, and the new entries (key hex → value). */
export interface DeltaCommit {
  root: Uint8Array;
  entries: Map<string, Uint8Array>;
  /** When asked for, the preimage of every address and slot hash written (hash hex → key). */
  preimages: Map<string, Uint8Array>;
}

export async function commitDelta(
  reader: ForkStateReader,
  nodes: ReadOnlyTrieDB,
  writes: NetWrites,
  recordPreimages: boolean,
): Promise<DeltaCommit> {
  const collector = new NodeCollector(nodes);
  const accountWrites: TrieWrite[] = [];
  const preimages = new Map<string, Uint8Array>();
  const note = (key: Uint8Array): Uint8Array => {
    const hash = keccak256(key);
    if (recordPreimages) preimages.set(bytesToHex(hash), key);
    return hash;
  };
  for (const key of new Set([...writes.accounts.keys(), ...writes.storage.keys()])) {
    const address = hexToBytes(key);
    const hashed = note(address);
    const written = writes.accounts.get(key);
    if (written === null) {
      accountWrites.push([hashed, ACCOUNT_TOMBSTONE]);
      continue;
    }
    const parent = await reader.deltaAccount(address);
    const overlay = writes.storage.get(key);
    // A deleted account's storage is gone, so an account written over a tombstone starts wiped too.
    const cleared = overlay?.cleared === true || parent.kind === "deleted";
    let storageDelta = parent.kind === "written" && !cleared ? parent.storageDelta : EMPTY_TRIE_ROOT;
    if (overlay !== undefined || cleared) {
      const slotWrites: TrieWrite[] = cleared ? [[WIPED_KEY, WIPED_VALUE]] : [];
      // Over wiped storage a zero slot is simply absent; over the base it must hide the base's value.
      const wiped = cleared || (await reader.isWiped(storageDelta));
      for (const [slot, value] of overlay?.slots ?? []) {
        const slotKey = note(hexToBytes(slot));
        if (value.length > 0) slotWrites.push([slotKey, RLP.encode(value)]);
        else slotWrites.push([slotKey, wiped ? undefined : SLOT_TOMBSTONE]);
      }
      storageDelta = await applyTrieWrites(collector, storageDelta, slotWrites);
    }
    // Storage written without an account write: the account as it reads now, with the new storage.
    const account = written ?? (await reader.getAccount(address));
    const leaf = new Account(
      account?.nonce ?? 0n,
      account?.balance ?? 0n,
      storageDelta,
      account?.codeHash ?? EMPTY_CODE_HASH,
    );
    accountWrites.push([hashed, leaf.serialize()]);
  }
  const root = await applyTrieWrites(collector, reader.root, accountWrites);
  for (const code of writes.code.values()) {
    if (code.length > 0) collector.entries.set(bytesToHex(concatBytes(CODEHASH_PREFIX, keccak256(code))), code);
  }
  return {root, entries: collector.entries, preimages};
}
