import type {Common} from "@ethereumjs/common";
import {Account, Address} from "@ethereumjs/util";
import {bytesToHex, bytesToPrefixedHex, compareBytes} from "@xchain/utils";
import {checkLength, StateError, StateErrorCode} from "./errors.ts";
import {EMPTY_TRIE_ROOT} from "./trie.ts";
import type {GenesisAccount, StateCommit, StateSource} from "./types.ts";

/**
 * Accounts written between two flushes of the session's caches into the trie: the caches are LRUs
 * sized for a block (cachePool.ts), and an entry they drop before a flush is a write lost.
 */
const ACCOUNTS_PER_FLUSH = 1_000;

/**
 * The genesis state: every allocated account (balance, nonce, code, non-zero storage) on the empty
 * trie. The root does not depend on the order of `alloc`, and the writes are sorted by key, so the
 * result is byte-for-byte deterministic. Nothing is written: store `writes` with the genesis block.
 */
export async function buildGenesisState(
  source: StateSource,
  alloc: Iterable<[address: Uint8Array, GenesisAccount]>,
  common: Common,
): Promise<StateCommit> {
  const session = await source.openSession(EMPTY_TRIE_ROOT, common);
  const sm = session.stateManager;
  const seen = new Set<string>();
  for (const [bytes, genesis] of alloc) {
    checkLength(bytes, 20, "address");
    const key = bytesToHex(bytes);
    if (seen.has(key)) {
      const address = bytesToPrefixedHex(bytes);
      throw new StateError({code: StateErrorCode.DUPLICATE_GENESIS_ACCOUNT, address}, `${address} is allocated twice`);
    }
    seen.add(key);
    // Reading the state root flushes the caches into the trie (`flush` is not on the interface).
    if (seen.size % ACCOUNTS_PER_FLUSH === 0) await sm.getStateRoot();
    const address = new Address(bytes);
    await sm.putAccount(address, new Account(genesis.nonce ?? 0n, genesis.balance));
    if (genesis.code !== undefined && genesis.code.length > 0) await sm.putCode(address, genesis.code);
    for (const [slot, value] of genesis.storage ?? []) {
      checkLength(slot, 32, "slot");
      if (value.some((b) => b !== 0)) await sm.putStorage(address, slot, value);
    }
  }
  const {root, writes} = await session.commit();
  return {root, writes: writes.sort((a, b) => compareBytes(a.key, b.key))};
}
