/**
 * Singleton keys of the `meta` bucket: the head block's hash, the storage layout version, the chain
 * id, and on a forked chain its anchor (RLP [upstream chain id, fork block hash, fork block number]).
 */
import {Bucket, type KeyValueStore, type WriteBatch} from "@xchain/db";
import {asBytes, decodeRlpList, decodeSafeInteger, encodeRlp, encodeUnsigned} from "@xchain/primitives";
import {bigIntToBytes, bytesToBigInt, utf8ToBytes} from "@xchain/utils";
import type {ForkAnchorId} from "../fork/anchor.ts";

const HEAD_KEY = utf8ToBytes("head");
const SCHEMA_VERSION_KEY = utf8ToBytes("schemaVersion");
const CHAIN_ID_KEY = utf8ToBytes("chainId");
const FORK_ANCHOR_KEY = utf8ToBytes("forkAnchor");

/**
 * The storage layout this code reads and writes; a change of buckets or encodings bumps it, and so does
 * a change of the rules that made the stored states. 2: REMASC as rskj pays it (docs/protocol/native-contracts.md
 * §11.5); a version-1 database holds a chain made under the simplified payout (`SIMPLIFIED_REMASC_SCHEMA`).
 */
export const SCHEMA_VERSION = 2;

/** The last schema version whose chains were made under xchain's simplified REMASC payout. */
export const SIMPLIFIED_REMASC_SCHEMA = 1;

/** The repository of the head pointer, the schema version and the chain id. */
export class MetaStore {
  constructor(private readonly store: KeyValueStore) {}

  putHead(batch: WriteBatch, hash: Uint8Array): void {
    batch.put(Bucket.meta, HEAD_KEY, hash);
  }

  getHead(): Promise<Uint8Array | undefined> {
    return this.store.get(Bucket.meta, HEAD_KEY);
  }

  putSchemaVersion(batch: WriteBatch): void {
    batch.put(Bucket.meta, SCHEMA_VERSION_KEY, Uint8Array.of(SCHEMA_VERSION));
  }

  /** The stored version, or undefined in an empty database. */
  async getSchemaVersion(): Promise<number | undefined> {
    return (await this.store.get(Bucket.meta, SCHEMA_VERSION_KEY))?.[0];
  }

  /** Stored bodies hold transactions signed for this chain id (two networks may share a genesis). */
  putChainId(batch: WriteBatch, chainId: number): void {
    batch.put(Bucket.meta, CHAIN_ID_KEY, bigIntToBytes(BigInt(chainId)));
  }

  async getChainId(): Promise<number | undefined> {
    const bytes = await this.store.get(Bucket.meta, CHAIN_ID_KEY);
    return bytes && Number(bytesToBigInt(bytes));
  }

  /** A forked chain's anchor (written once, with the anchor block: `initializeForkStore`). */
  putForkAnchor(batch: WriteBatch, anchor: ForkAnchorId): void {
    const {upstreamChainId, hash, number} = anchor;
    batch.put(
      Bucket.meta,
      FORK_ANCHOR_KEY,
      encodeRlp([encodeUnsigned(BigInt(upstreamChainId)), hash, encodeUnsigned(BigInt(number))]),
    );
  }

  /** The stored anchor, or undefined for a chain that is not a fork. */
  async getForkAnchor(): Promise<ForkAnchorId | undefined> {
    const bytes = await this.store.get(Bucket.meta, FORK_ANCHOR_KEY);
    if (!bytes) return undefined;
    const [chainId, hash, number] = decodeRlpList(bytes, "forkAnchor");
    return {
      upstreamChainId: decodeSafeInteger(asBytes(chainId, "forkAnchor chain id"), "forkAnchor chain id"),
      hash: asBytes(hash, "forkAnchor hash"),
      number: decodeSafeInteger(asBytes(number, "forkAnchor number"), "forkAnchor number"),
    };
  }
}
