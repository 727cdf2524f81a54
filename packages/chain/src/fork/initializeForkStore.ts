/**
 * Opening a forked chain's database (docs/architecture.md, "The forked chain"): the first write of
 * the fork anchor, or the checks of a store that already holds one.
 */

import {WriteBatch} from "@xchain/db";
import {Block} from "@xchain/primitives";
import {ChainError, ChainErrorCode} from "../errors.ts";
import {checkChainId, checkSchemaVersion, loadHead} from "../initializeStore.ts";
import type {ChainStore} from "../store/chainStore.ts";
import type {StateOverrides} from "../store/stateOverrides.ts";
import type {ChainHead} from "../types.ts";
import {describeForkAnchor, type ForkAnchor, sameForkAnchor} from "./anchor.ts";

/**
 * Writes the fork anchor into an empty store in ONE batch: the anchor header at height F (stored
 * like a genesis: no body, its own difficulty as total difficulty, canonical at F), the head
 * pointer, schema version, chain id and `forkAnchor` record, R₀'s trie writes and the state
 * override making R₀ the state after the anchor (its header keeps the upstream's stateRoot). In a
 * used store, checks that it holds this fork (CHAIN_FORK_MISMATCH) of this chain id and loads the head.
 */
export async function initializeForkStore(
  store: ChainStore,
  overrides: StateOverrides,
  anchor: ForkAnchor,
  chainId: number,
): Promise<ChainHead> {
  const storedVersion = await store.meta.getSchemaVersion();
  if (storedVersion !== undefined) {
    checkSchemaVersion(storedVersion);
    await checkStoredAnchor(store, anchor);
    await checkChainId(store, chainId);
    return loadHead(store);
  }
  const batch = new WriteBatch();
  store.meta.putSchemaVersion(batch);
  store.meta.putChainId(batch, chainId);
  const head = writeForkAnchor(batch, store, overrides, anchor);
  await store.kv.write(batch);
  overrides.remember(anchor.header, anchor.initialState.root);
  return head;
}

/**
 * Adds to `batch` the anchor as the head (`initializeForkStore`, and `Chain.reanchor` over an older
 * anchor): its header at height F (no body, its own difficulty as total difficulty, canonical at
 * F), the `forkAnchor` record, R₀'s trie writes and the state override making R₀ the state after
 * it. The caller writes the batch, then `overrides.remember`s R₀.
 */
export function writeForkAnchor(
  batch: WriteBatch,
  store: ChainStore,
  overrides: StateOverrides,
  anchor: ForkAnchor,
): ChainHead {
  const {header, initialState} = anchor;
  const hash = header.hash();
  batch.append(initialState.writes);
  store.blocks.putHeader(batch, header);
  store.totalDifficulty.put(batch, hash, header.difficulty);
  store.canonical.putBlock(batch, new Block(header, [], []));
  store.meta.putForkAnchor(batch, anchor);
  store.meta.putHead(batch, hash);
  overrides.write(batch, header, initialState.root);
  return {header, hash, number: header.number, totalDifficulty: header.difficulty};
}

async function checkStoredAnchor(store: ChainStore, anchor: ForkAnchor): Promise<void> {
  const stored = await store.meta.getForkAnchor();
  if (stored && sameForkAnchor(stored, anchor)) return;
  const expected = describeForkAnchor(anchor);
  const storedName = stored ? `a fork of ${describeForkAnchor(stored)}` : "a chain from its genesis";
  throw new ChainError(
    {code: ChainErrorCode.FORK_MISMATCH, expected, stored: stored ? describeForkAnchor(stored) : "none"},
    `the database holds ${storedName}, not a fork of ${expected}`,
  );
}
