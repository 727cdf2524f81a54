/** Opening a chain database: the first write of the genesis, or the checks of an existing store. */
import {WriteBatch} from "@xchain/db";
import {bytesToPrefixedHex, equalBytes} from "@xchain/utils";
import {ChainError, ChainErrorCode} from "./errors.ts";
import {describeForkAnchor} from "./fork/anchor.ts";
import type {GenesisBuild} from "./genesis.ts";
import type {ChainStore} from "./store/chainStore.ts";
import {SCHEMA_VERSION, SIMPLIFIED_REMASC_SCHEMA} from "./store/metaStore.ts";
import type {ChainHead} from "./types.ts";

/**
 * Writes the genesis block, its state, the head pointer, the schema version and the chain id into
 * an empty store (one batch), or checks them in a used one; returns the head.
 */
export async function initializeStore(
  store: ChainStore,
  {block: genesis, stateWrites}: GenesisBuild,
  chainId: number,
): Promise<ChainHead> {
  const storedVersion = await store.meta.getSchemaVersion();
  const genesisHead = {
    header: genesis.header,
    hash: genesis.hash(),
    number: 0,
    totalDifficulty: genesis.header.difficulty,
  };
  if (storedVersion === undefined) {
    const batch = writeGenesis(new WriteBatch(), store, {block: genesis, stateWrites}, chainId);
    store.meta.putHead(batch, genesisHead.hash);
    await store.kv.write(batch);
    return genesisHead;
  }
  checkSchemaVersion(storedVersion);
  const storedFork = await store.meta.getForkAnchor();
  if (storedFork) {
    throw new ChainError(
      {code: ChainErrorCode.FORK_MISMATCH, expected: "none", stored: describeForkAnchor(storedFork)},
      `the database holds a fork of ${describeForkAnchor(storedFork)}, not the chain of genesis ${bytesToPrefixedHex(genesisHead.hash)}`,
    );
  }
  const storedGenesis = await store.canonical.hashAt(0);
  if (!storedGenesis || !equalBytes(storedGenesis, genesisHead.hash)) {
    const expected = bytesToPrefixedHex(genesisHead.hash);
    const stored = storedGenesis ? bytesToPrefixedHex(storedGenesis) : "none";
    throw new ChainError(
      {code: ChainErrorCode.GENESIS_MISMATCH, expected, stored},
      `the database holds the chain of genesis ${stored}, not ${expected}`,
    );
  }
  await checkChainId(store, chainId);
  return loadHead(store);
}

/**
 * Throws CHAIN_SCHEMA_VERSION_MISMATCH unless `storedVersion` is the layout this code reads; a version-1
 * database is refused with the reason: its states were made under the simplified REMASC payout, which no
 * block of it past block 0 re-executes to under rskj's REMASC (docs/protocol/native-contracts.md §11.5).
 */
export function checkSchemaVersion(storedVersion: number): void {
  if (storedVersion === SIMPLIFIED_REMASC_SCHEMA) {
    throw new ChainError(
      {code: ChainErrorCode.SCHEMA_VERSION_MISMATCH, expected: SCHEMA_VERSION, stored: storedVersion},
      "the database holds a chain made under xchain's former simplified REMASC payout (schema version 1); " +
        "this node pays REMASC as rskj does, so the chain's blocks no longer execute to their stored state roots. " +
        "Start with a new data directory (docs/protocol/native-contracts.md §11.5)",
    );
  }
  if (storedVersion !== SCHEMA_VERSION) {
    throw new ChainError(
      {code: ChainErrorCode.SCHEMA_VERSION_MISMATCH, expected: SCHEMA_VERSION, stored: storedVersion},
      `database schema version ${storedVersion}, this node reads ${SCHEMA_VERSION}`,
    );
  }
}

/** Throws CHAIN_CHAIN_ID_MISMATCH unless the store holds a chain of `chainId`. */
export async function checkChainId(store: ChainStore, chainId: number): Promise<void> {
  const storedChainId = await store.meta.getChainId();
  if (storedChainId !== chainId) {
    throw new ChainError(
      {code: ChainErrorCode.CHAIN_ID_MISMATCH, expected: chainId, stored: storedChainId},
      `the database holds the chain of chain id ${storedChainId}, not ${chainId}`,
    );
  }
}

/**
 * Adds the writes of the genesis block, its state, receipts, total difficulty and canonical entries,
 * and of the schema version and chain id, to `batch` (the same bytes each time: `xchain db repair`
 * writes them again over a damaged store).
 */
export function writeGenesis(
  batch: WriteBatch,
  store: ChainStore,
  {block, stateWrites}: GenesisBuild,
  chainId: number,
): WriteBatch {
  const hash = block.hash();
  batch.append(stateWrites);
  store.blocks.put(batch, block);
  store.receipts.put(batch, hash, []);
  store.totalDifficulty.put(batch, hash, block.header.difficulty);
  store.canonical.putBlock(batch, block);
  store.meta.putSchemaVersion(batch);
  store.meta.putChainId(batch, chainId);
  return batch;
}

/** The stored head (CHAIN_HEAD_MISSING when the pointer or its block is missing). */
export async function loadHead(store: ChainStore): Promise<ChainHead> {
  const hash = await store.meta.getHead();
  const header = hash && (await store.blocks.getHeader(hash));
  const totalDifficulty = hash && (await store.totalDifficulty.get(hash));
  if (!hash || !header || totalDifficulty === undefined) {
    throw new ChainError({code: ChainErrorCode.HEAD_MISSING}, "the database has a genesis but no head block");
  }
  return {header, hash, number: header.number, totalDifficulty};
}
