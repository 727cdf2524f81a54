/**
 * `xchain db repair`'s first step: the genesis block, its state and indexes, the schema version and
 * the chain id are known without the database (they follow from the network's parameters), so they
 * are written again, whatever damage took them; a head pointer that was lost becomes the highest
 * canonical block. A store of another chain is refused, not overwritten.
 */
import type {Chainspec, GenesisParams} from "@xchain/chainspec";
import {Bucket, type KeyValueStore, numberFromKey, WriteBatch} from "@xchain/db";
import {createChainCommon} from "@xchain/execution";
import {defaultStateOptions, StateDatabase} from "@xchain/state";
import {bytesToPrefixedHex, equalBytes} from "@xchain/utils";
import {ChainError, ChainErrorCode} from "../errors.ts";
import {buildGenesisBlock} from "../genesis.ts";
import {writeGenesis} from "../initializeStore.ts";
import {defaultChainOptions} from "../options.ts";
import {ChainStore} from "../store/chainStore.ts";

/** Whether the head pointer had to be set again (it was lost), and to which height. */
export interface GenesisRestore {
  headRestoredAt?: number;
}

export async function restoreGenesis(
  kv: KeyValueStore,
  {chainspec, genesis}: {chainspec: Chainspec; genesis: GenesisParams},
): Promise<GenesisRestore> {
  const {chainId} = chainspec.params;
  const store = new ChainStore(kv, {rules: chainspec, chainId}, defaultChainOptions);
  const build = await buildGenesisBlock(
    genesis,
    chainspec,
    new StateDatabase(defaultStateOptions, {store: kv}),
    createChainCommon(chainspec),
  );
  const stored = await store.canonical.hashAt(0);
  if (stored && !equalBytes(stored, build.block.hash())) {
    const expected = bytesToPrefixedHex(build.block.hash());
    throw new ChainError(
      {code: ChainErrorCode.GENESIS_MISMATCH, expected, stored: bytesToPrefixedHex(stored)},
      `the database holds the chain of genesis ${bytesToPrefixedHex(stored)}, not ${expected}`,
    );
  }
  const batch = writeGenesis(new WriteBatch(), store, build, chainId);
  let headRestoredAt: number | undefined;
  if (!(await store.meta.getHead())) {
    for await (const [key, hash] of kv.entries(Bucket.canonicalHash, {reverse: true, limit: 1})) {
      headRestoredAt = numberFromKey(key);
      store.meta.putHead(batch, hash);
    }
    if (headRestoredAt === undefined) {
      headRestoredAt = 0;
      store.meta.putHead(batch, build.block.hash());
    }
  }
  await kv.write(batch);
  return {headRestoredAt};
}
