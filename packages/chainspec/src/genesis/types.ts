/** What a genesis block is made of (docs/protocol/networks.md §2): header values and the initial allocation. */

/** One account funded at genesis. */
export interface GenesisAllocAccount {
  /** 20 bytes. */
  address: Uint8Array;
  /** In wei. */
  balance: bigint;
  nonce?: bigint;
  code?: Uint8Array;
  /** [32-byte slot, 32-byte value] pairs; zero values are left out of the trie. */
  storage?: [Uint8Array, Uint8Array][];
}

/**
 * The header fields a network's genesis sets. Difficulty and gasLimit keep the raw bytes of rskj's genesis
 * JSON, because rskj hashes them as written (docs/protocol/networks.md §2: a 5-byte difficulty, a gasLimit
 * without sign byte); every other field is zero or empty (parentHash, roots, bloom, number, gasUsed,
 * paidFees, uncleCount) or fixed (`0x00` merged-mining fields).
 */
export interface GenesisHeaderParams {
  /** Raw big-endian difficulty bytes. */
  difficultyBytes: Uint8Array;
  /** Raw big-endian gas limit bytes. */
  gasLimitBytes: Uint8Array;
  /** Seconds since the epoch. */
  timestamp: number;
  extraData: Uint8Array;
  /** 20 bytes (rskj: 0x3333…33). */
  coinbase: Uint8Array;
  minimumGasPrice: bigint;
}

/** A network's genesis: the header fields and the accounts funded in its state. */
export interface GenesisParams {
  header: GenesisHeaderParams;
  alloc: readonly GenesisAllocAccount[];
}
