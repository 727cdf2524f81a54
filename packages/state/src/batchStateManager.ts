import {RLP} from "@ethereumjs/rlp";
import {CODEHASH_PREFIX, MerkleStateManager} from "@ethereumjs/statemanager";
import {Account, createAddressFromString} from "@ethereumjs/util";
import {concatBytes, hexToBytes, keccak256} from "@xchain/utils";
import {applyTrieWrites, type TrieWrite} from "./batchTrie.ts";

/**
 * A `MerkleStateManager` whose flush (at the outermost commit, and before reading the state root)
 * writes the caches into the tries in one `applyTrieWrites` pass per trie: each touched node is
 * hashed once per flush, not once per account or slot update. The result (roots, the nodes in the
 * trie's database, the accounts and storage tries in the caches) is the one of the stock flush.
 */
export class BatchFlushStateManager extends MerkleStateManager {
  override async flush(): Promise<void> {
    const caches = this._caches;
    if (caches === undefined) return super.flush();
    // Code first: it may create accounts and set code hashes, which the account pass then writes.
    for (const [addressHex, {code}] of caches.code?.flush() ?? []) {
      if (code === undefined) continue;
      const address = createAddressFromString(`0x${addressHex}`);
      const codeHash = keccak256(code);
      await this._getCodeDB().put(this._prefixCodeHashes ? concatBytes(CODEHASH_PREFIX, codeHash) : codeHash, code);
      if ((await this.getAccount(address)) === undefined) await this.putAccount(address, new Account());
      await this.modifyAccountFields(address, {codeHash});
    }
    await this.flushStorage(caches.storage?.flush() ?? []);
    const accountWrites: TrieWrite[] = [];
    for (const [addressHex, {accountRLP}] of caches.account?.flush() ?? []) {
      accountWrites.push([keccak256(hexToBytes(addressHex)), accountRLP]);
    }
    if (accountWrites.length > 0) {
      this._trie.root(await applyTrieWrites(this._trie.database(), this._trie.root(), accountWrites));
    }
  }

  /** Each account's slot writes in one pass over its storage trie; the new storage root goes to the account cache. */
  private async flushStorage(items: [string, string, Uint8Array | undefined][]): Promise<void> {
    const byAccount = new Map<string, TrieWrite[]>();
    for (const [addressHex, slotHex, encoded] of items) {
      let writes = byAccount.get(addressHex);
      if (writes === undefined) {
        writes = [];
        byAccount.set(addressHex, writes);
      }
      // The cache holds RLP(value), 0x80 for zero: the trie stores RLP of the unpadded value, and deletes zero.
      const value = RLP.decode(encoded ?? new Uint8Array(0)) as Uint8Array;
      writes.push([keccak256(hexToBytes(slotHex)), value.length > 0 ? RLP.encode(value) : undefined]);
    }
    for (const [addressHex, writes] of byAccount) {
      const address = createAddressFromString(`0x${addressHex}`);
      const account = await this.getAccount(address);
      // The stock flush drops the writes of an account that no longer exists.
      if (account === undefined) continue;
      const trie = this._getStorageTrie(address, account);
      trie.root(await applyTrieWrites(trie.database(), trie.root(), writes));
      account.storageRoot = trie.root();
      await this.putAccount(address, account);
    }
  }
}
