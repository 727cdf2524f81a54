/** Chains of stored headers (no bodies, no state): what a BLOCKHASH lookup by parent links reads. */
import type {Chainspec} from "@xchain/chainspec";
import {Bucket, type KeyValueStore, numberKey, WriteBatch} from "@xchain/db";
import type {BlockHeader} from "@xchain/primitives";
import {plainHeader} from "@xchain/test-utils";

/**
 * Stores `count` headers extending `from` (the genesis when undefined), each under its hash as the
 * chain stores them, and makes them canonical at their heights, as a reorganization to them would
 * (the lookups by parent links must not read it). The headers, lowest first.
 */
export async function storeBranch(
  store: KeyValueStore,
  chainspec: Chainspec,
  from: BlockHeader | undefined,
  count: number,
  tag: number,
): Promise<BlockHeader[]> {
  const batch = new WriteBatch();
  const headers: BlockHeader[] = [];
  let parent = from;
  for (let i = 0; i < count; i++) {
    const header = plainHeader(
      parent ? parent.number + 1 : 0,
      parent ? parent.hash() : new Uint8Array(32),
      chainspec,
      tag,
    );
    batch.put(Bucket.header, header.hash(), header.encode());
    batch.put(Bucket.canonicalHash, numberKey(header.number), header.hash());
    headers.push(header);
    parent = header;
  }
  await store.write(batch);
  return headers;
}
