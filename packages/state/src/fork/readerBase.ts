import {equalBytes, keccak256} from "@xchain/utils";
import {EMPTY_TRIE_ROOT} from "../trie.ts";
import type {StateReader} from "../types.ts";
import {type BaseAccount, noBaseCode, type StateBase} from "./stateBase.ts";

/**
 * A base that is a state this node can read itself (a `StateReader` at a stored root): forking a
 * local chain, and the reference the forked state is checked against in tests. `id` is
 * `forkBaseId(chainId, hash of the block whose state it is)`.
 */
export function readerBase(reader: StateReader, id: Uint8Array): StateBase {
  return {
    id,
    async account(address: Uint8Array): Promise<BaseAccount | undefined> {
      const account = await reader.getAccount(address);
      if (account === undefined) return undefined;
      return {
        nonce: account.nonce,
        balance: account.balance,
        codeHash: account.codeHash,
        storageEmpty: equalBytes(account.storageRoot, EMPTY_TRIE_ROOT),
        storageRoot: account.storageRoot,
      };
    },
    storage: (address, slot) => reader.getStorage(address, slot),
    async code(address: Uint8Array, codeHash: Uint8Array): Promise<Uint8Array> {
      const code = await reader.getCode(address);
      // The base's account has other code than the forked state names: the base is not that state's.
      if (!equalBytes(keccak256(code), codeHash)) throw noBaseCode(codeHash);
      return code;
    },
  };
}
