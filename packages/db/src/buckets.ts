/**
 * Every key in the database starts with one bucket byte, so one LevelDB batch can write across
 * buckets atomically (block import writes state, block, receipts and indexes together).
 */
export enum Bucket {
  /** trie node hash (32) -> node; also contract code under ethereumjs's code prefix */
  stateTrie = 0x01,
  /** block hash (32) -> full header RLP */
  header = 0x02,
  /** block hash (32) -> RLP [transactions, uncles] (raw transaction encodings) */
  body = 0x03,
  /** block hash (32) -> RLP list of receipts */
  receipts = 0x04,
  /** block hash (32) -> total difficulty (minimal big-endian) */
  totalDifficulty = 0x05,
  /** block number (8, big-endian) -> canonical block hash */
  canonicalHash = 0x06,
  /** transaction hash (32) -> RLP [block hash, index] of its canonical inclusion */
  txLocation = 0x07,
  /** block number (8, big-endian) -> logs bloom (256) of the canonical block, for range log queries */
  canonicalBloom = 0x08,
  /** block number (8, big-endian) || block hash (32) -> empty: every stored block, canonical or not */
  blocksByNumber = 0x09,
  /** block hash (32) -> state root (32): a dev node's edited state after that block (chain's `editHeadState`) */
  stateOverride = 0x0a,
  /**
   * transaction hash (32) -> sender (20): a dev node's own impersonated transactions, whose sender is
   * carried, not recovered (docs/rpc.md §4.10); written with the block that holds them
   */
  impersonatedSender = 0x0b,
  /**
   * keccak256(address or storage slot) (32) -> the address (20) or slot (32): the names of the state
   * trie's hashed keys, recorded on dev networks only (`StateOptions.recordPreimages`), for dumps
   */
  preimage = 0x0c,
  /**
   * the `db_*` RPC methods' key-value store (rpc's `DappDb`, docs/rpc.md §4.7): 0x00 -> its total size (8,
   * big-endian); 0x01 || database name length (4, big-endian) || database name || key -> value
   */
  dappDb = 0x0d,
  /**
   * stateTrie key -> one byte: the marks of a state collection in progress (docs/operations.md §12; state's
   * `prune/`): 0 kept because a write during the collection stored it, 1 reached from a retained root with
   * everything below it. Empty between collections.
   */
  stateMark = 0x0e,
  /**
   * the fork cache's own database only (state's `ForkCache`, docs/forking.md §1.2): values fetched from a
   * fork's upstream, keyed by the upstream's chain id and the fork block hash
   */
  forkCache = 0x10,
  /**
   * the flat state of the head (state's `flat/`, docs/operations.md §13): empty key -> its meta (the state root
   * it describes, whether complete, the generation's marker); keccak256(address) (32) -> the account trie's
   * value (account RLP); keccak256(address) || keccak256(slot) (64) -> the storage trie's value (RLP of the word)
   */
  flatState = 0x11,
  /** singleton keys (head hash, schema version) */
  meta = 0x0f,
}

/** 8-byte big-endian encoding of a block number, so that keys sort by number. */
export function numberKey(blockNumber: number): Uint8Array {
  const key = new Uint8Array(8);
  new DataView(key.buffer).setBigUint64(0, BigInt(blockNumber));
  return key;
}

/** Inverse of `numberKey`. */
export function numberFromKey(key: Uint8Array): number {
  return Number(new DataView(key.buffer, key.byteOffset, 8).getBigUint64(0));
}
