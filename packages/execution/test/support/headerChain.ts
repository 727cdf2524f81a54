/** Chains of stored headers (no bodies, no state): what a BLOCKHASH lookup by parent links reads. */
import type {Chainspec} from "@xchain/chainspec";
import {Bucket, type KeyValueStore, numberKey, WriteBatch} from "@xchain/db";
import {BlockHeader} from "@xchain/primitives";

/** A header at `number` over `parentHash`; `tag` (its extraData) tells apart the blocks of two branches. */
export function headerAt(number: number, parentHash: Uint8Array, tag: number, chainspec: Chainspec): BlockHeader {
  return BlockHeader.fromValues(
    {
      parentHash,
      unclesHash: new Uint8Array(32),
      coinbase: new Uint8Array(20),
      stateRoot: new Uint8Array(32),
      txTrieRoot: new Uint8Array(32),
      receiptTrieRoot: new Uint8Array(32),
      logsBloom: new Uint8Array(256),
      difficulty: 1n,
      number,
      gasLimit: 6_800_000n,
      gasUsed: 0n,
      timestamp: 1_700_000_000 + number,
      extraData: Uint8Array.of(tag),
      paidFees: 0n,
      minimumGasPrice: 0n,
      uncleCount: 0,
      ...(chainspec.hasUmmRoot(number) ? {ummRoot: new Uint8Array(0)} : {}),
    },
    chainspec,
  );
}

/**
 * Stores `count` headers extending `from` (the genesis when undefined), each under its hash as the
 * chain stores them, and makes them canonical when `canonical`. The headers, lowest first.
 */
export async function storeBranch(
  store: KeyValueStore,
  chainspec: Chainspec,
  from: BlockHeader | undefined,
  count: number,
  tag: number,
  canonical: boolean,
): Promise<BlockHeader[]> {
  const batch = new WriteBatch();
  const headers: BlockHeader[] = [];
  let parent = from;
  for (let i = 0; i < count; i++) {
    const header = headerAt(
      parent ? parent.number + 1 : 0,
      parent ? parent.hash() : new Uint8Array(32),
      tag,
      chainspec,
    );
    batch.put(Bucket.header, header.hash(), header.encode());
    if (canonical) batch.put(Bucket.canonicalHash, numberKey(header.number), header.hash());
    headers.push(header);
    parent = header;
  }
  await store.write(batch);
  return headers;
}
