/**
 * `xchain db repair`'s rewind: the head goes back to a block whose chain and state are whole, and
 * every block above its height is forgotten (header, body, receipts, total difficulty, dev state
 * override, the indexes),
 * canonical or not, so that a peer's copy of them is imported (and executed) again rather than
 * found already stored. One batch; reads no header above the new head, which may be the damaged part.
 */
import {Bucket, type KeyValueStore, numberFromKey, numberKey, WriteBatch} from "@xchain/db";
import {asBytes, decodeRlpList} from "@xchain/primitives";
import {bytesToHex, bytesToPrefixedHex} from "@xchain/utils";
import {ChainError, ChainErrorCode} from "../errors.ts";
import {MetaStore} from "../store/metaStore.ts";

export interface Rewind {
  head: {number: number; hash: string};
  /** Blocks forgotten, canonical or not. */
  removedBlocks: number;
}

/** Makes the canonical block `blockNumber` the head and forgets every block above it (see the file comment). */
export async function rewindChain(kv: KeyValueStore, blockNumber: number): Promise<Rewind> {
  const hash = await kv.get(Bucket.canonicalHash, numberKey(blockNumber));
  if (!hash) {
    throw new ChainError(
      {code: ChainErrorCode.UNKNOWN_BLOCK, hash: `#${blockNumber}`},
      `no canonical block ${blockNumber}`,
    );
  }
  const batch = new WriteBatch();
  const above = {gte: numberKey(blockNumber + 1)};
  const removed = new Set<string>();
  for await (const [key] of kv.entries(Bucket.blocksByNumber, above)) {
    const blockHash = key.subarray(8);
    removed.add(bytesToHex(blockHash));
    // A forgotten block's dev state override goes with it: an import of the same block must not find it.
    for (const bucket of [Bucket.header, Bucket.body, Bucket.receipts, Bucket.totalDifficulty, Bucket.stateOverride])
      batch.del(bucket, blockHash);
    batch.del(Bucket.blocksByNumber, key);
  }
  for await (const [key, canonical] of kv.entries(Bucket.canonicalHash, above)) {
    removed.add(bytesToHex(canonical));
    batch.del(Bucket.canonicalHash, key).del(Bucket.canonicalBloom, numberKey(numberFromKey(key)));
  }
  for await (const [txHash, location] of kv.entries(Bucket.txLocation)) {
    if (removed.has(bytesToHex(blockOf(location)))) batch.del(Bucket.txLocation, txHash);
  }
  new MetaStore(kv).putHead(batch, hash);
  await kv.write(batch);
  return {head: {number: blockNumber, hash: bytesToPrefixedHex(hash)}, removedBlocks: removed.size};
}

/** The block hash of a stored transaction location (RLP [block hash, index]); empty when it does not decode. */
function blockOf(location: Uint8Array): Uint8Array {
  try {
    return asBytes(decodeRlpList(location, "txLocation")[0], "blockHash");
  } catch {
    return new Uint8Array(0);
  }
}
