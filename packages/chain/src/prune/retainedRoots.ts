/** The state roots a collection keeps (docs/operations.md §12). */

import {bytesToHex} from "@xchain/utils";
import type {ChainStore} from "../store/chainStore.ts";
import type {StateOverrides} from "../store/stateOverrides.ts";
import type {ChainHead} from "../types.ts";

/** A root to keep; a `required` one that is not whole stops the collection (the head's state is damaged). */
export interface RetainedRoot {
  root: Uint8Array;
  required: boolean;
}

/**
 * The head's state (required), the states after every stored block numbered `cutoff` or above
 * (canonical or side, the dev override's and the header's own), and `others` (the chain's initial
 * state, which evm_reset returns to; the roots dev snapshots pin).
 */
export async function retainedRoots(
  store: ChainStore,
  overrides: StateOverrides,
  head: ChainHead,
  cutoff: number,
  others: readonly Uint8Array[],
): Promise<RetainedRoot[]> {
  const roots = new Map<string, RetainedRoot>();
  const add = (root: Uint8Array, required = false): void => {
    const key = bytesToHex(root);
    if (!roots.has(key)) roots.set(key, {root, required});
  };
  add(overrides.rootAfter(head.header), true);
  for await (const hash of store.blocks.hashesFrom(cutoff)) {
    const header = await store.blocks.getHeader(hash);
    if (header === undefined) continue;
    add(overrides.rootAfter(header));
    add(header.stateRoot);
  }
  for (const root of others) add(root);
  return [...roots.values()];
}
