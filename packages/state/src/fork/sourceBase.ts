/**
 * The upstream's state at the fork block as the base of forked states (docs/forking.md §2): the
 * `StateBase` a forked `StateDatabase` reads what it has not written from, over a `ForkSource` (its
 * cache, requests, pinning and proof checks stay the source's).
 */
import {equalBytes} from "@xchain/utils";
import {EMPTY_TRIE_ROOT} from "../trie.ts";
import type {ForkSource} from "./forkSource.ts";
import {EMPTY_CODE_HASH} from "./proofs.ts";
import {type BaseAccount, forkBaseId, noBaseCode, type StateBase} from "./stateBase.ts";

/**
 * `source` as a `StateBase` with the id `forkBaseId(source.chainId, fork block hash)`. An account
 * with nonce 0, balance 0 and no code reads as absent: an upstream without `eth_getProof` cannot tell
 * it from a missing one (EIP-161 treats both alike), and with a proof it is absent unless it holds
 * storage. Its storage root, and whether its storage is empty, are known only from a proof.
 */
export function forkSourceBase(source: ForkSource): StateBase {
  return {
    id: forkBaseId(source.chainId, source.header.hash),
    async account(address: Uint8Array): Promise<BaseAccount | undefined> {
      const {nonce, balance, codeHash, storageRoot} = await source.account(address);
      const storageEmpty = storageRoot === undefined ? undefined : equalBytes(storageRoot, EMPTY_TRIE_ROOT);
      if (nonce === 0n && balance === 0n && equalBytes(codeHash, EMPTY_CODE_HASH) && storageEmpty !== false) {
        return undefined;
      }
      return storageRoot === undefined
        ? {nonce, balance, codeHash, storageEmpty}
        : {nonce, balance, codeHash, storageEmpty, storageRoot};
    },
    storage: (address, slot) => source.storage(address, slot),
    async code(address: Uint8Array, codeHash: Uint8Array): Promise<Uint8Array> {
      // The source checks the code it fetches against the account's hash; a state naming another
      // hash for this address does not read this base's code.
      const account = await source.account(address);
      if (!equalBytes(account.codeHash, codeHash)) throw noBaseCode(codeHash);
      return source.code(address);
    },
  };
}
