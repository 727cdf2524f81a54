/** Helpers of the state collection tests: a pruned chain, a contract that sets slots, the reachable entries. */
import {regtestGenesis} from "@xchain/chainspec";
import {Bucket, type KeyValueStore} from "@xchain/db";
import {EMPTY_TRIE_ROOT, nodeReferences, TrieKind} from "@xchain/state";
import {type CompiledContract, compileSolidity} from "@xchain/test-utils";
import {bigIntToFixedBytes, bytesToHex, concatBytes, equalBytes} from "@xchain/utils";
import {Chain, type StateMode} from "../../src/index.ts";
import {defaultChainOptions} from "../../src/options.ts";
import {cows, regtest, signTx} from "../helpers.ts";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract Slots {
  function set(uint256 slot, uint256 value) external {
    assembly { sstore(slot, value) }
  }
}`;

let compiled: CompiledContract | undefined;

export function slotsContract(): CompiledContract {
  compiled ??= compileSolidity(SOURCE).Slots as CompiledContract;
  return compiled;
}

/** Calldata of `set(slot, value)`. */
export function setSlotData(slot: bigint, value: bigint): Uint8Array {
  return concatBytes(
    slotsContract().selectors["set(uint256,uint256)"] as Uint8Array,
    bigIntToFixedBytes(slot, 32),
    bigIntToFixedBytes(value, 32),
  );
}

/** A chain on `store` keeping the states of `retainBlocks` blocks (or every one). */
export function openRetainingChain(
  store: KeyValueStore,
  retainBlocks: number,
  mode: StateMode = "pruned",
): Promise<Chain> {
  return Chain.open(
    {...defaultChainOptions, retention: {mode, retainBlocks}},
    {store, chainspec: regtest, genesis: regtestGenesis},
  );
}

/** A transaction of the first cow account. */
export function cowTx(nonce: bigint, to: Uint8Array | undefined, data: Uint8Array, value = 0n) {
  return signTx(cows[0]!, {nonce, to, data, value, gasLimit: 1_000_000n});
}

/** Every `stateTrie` key the states at `roots` reach (nodes and code), as hex. */
export async function reachableKeys(store: KeyValueStore, roots: readonly Uint8Array[]): Promise<Set<string>> {
  const seen = new Set<string>();
  const stack: [Uint8Array, TrieKind][] = roots
    .filter((root) => !equalBytes(root, EMPTY_TRIE_ROOT))
    .map((root) => [root, TrieKind.Account]);
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [key, kind] = next;
    if (seen.has(bytesToHex(key))) continue;
    seen.add(bytesToHex(key));
    const node = await store.get(Bucket.stateTrie, key);
    if (node === undefined) throw new Error(`missing ${bytesToHex(key)}`);
    const {children, codes} = nodeReferences(node, kind);
    stack.push(...children);
    for (const code of codes) seen.add(`63${bytesToHex(code)}`);
  }
  return seen;
}

/** Every key of a bucket, as hex. */
export async function bucketKeys(store: KeyValueStore, bucket: Bucket): Promise<Set<string>> {
  const keys = new Set<string>();
  for await (const [key] of store.entries(bucket)) keys.add(bytesToHex(key));
  return keys;
}
