/** The light client's stored block and the narrow storage it runs over (docs/protocol/native-contracts.md §5.4). */

/** bitcoinj's `StoredBlock`: a header with its height and the chain work up to it. */
export interface StoredBlock {
  /** The 80-byte header. */
  header: Uint8Array;
  /** Total work of the chain up to and including this block. */
  chainWork: bigint;
  height: number;
}

/** The byte strings the Bridge keeps under 32-byte keys (rskj's `getStorageBytes`/`addStorageBytes`). */
export interface BytesStorage {
  /** The value under `key`; empty when unset. */
  getBytes(key: Uint8Array): Promise<Uint8Array>;
  /** Stores `value` under `key`; an empty value deletes it. */
  putBytes(key: Uint8Array, value: Uint8Array): Promise<void>;
}
