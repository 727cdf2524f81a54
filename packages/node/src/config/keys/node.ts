/** The keys the node itself reads: network, data directory, logging, wallet, state caches, LevelDB's memory. */
import {MIN_RETAIN_BLOCKS} from "@xchain/chain/options";
import {LOG_LEVELS} from "../../logger.ts";
import {NETWORK_CHOICES} from "../../network.ts";
import type {ConfigKey} from "../configKey.ts";
import type {ValueKind} from "../values.ts";

/** A cache budget in MiB (docs/operations.md §8); 0 disables the cache. */
export const CACHE_MIB: ValueKind = {type: "integer", min: 0, max: 65536};
/** LevelDB's sizes in MiB: its options are 32-bit byte counts. */
const LEVELDB_MIB: ValueKind = {type: "integer", min: 1, max: 4095};

/** Top-level keys and the `[log]`, `[wallet]`, `[state]` and `[db]` tables. */
export const nodeKeys: readonly ConfigKey[] = [
  {
    key: "network",
    kind: {type: "string", choices: NETWORK_CHOICES},
    placeholder: "name",
    description: "the network whose rules apply: mainnet (chain id 30), testnet (31), regtest (33) or custom",
  },
  {
    key: "dataDir",
    kind: {type: "path"},
    flag: "--datadir",
    placeholder: "dir",
    description: "directory of the node's database (LevelDB); one node at a time may use it",
  },
  {
    key: "genesisFile",
    kind: {type: "path"},
    flag: "--genesis-file",
    placeholder: "file",
    optional: true,
    description: "genesis JSON of a custom network (network = custom only)",
  },
  {
    key: "log.level",
    kind: {type: "string", choices: LOG_LEVELS},
    placeholder: "level",
    description: "least severe level written to stdout (pretty on a terminal, JSON lines otherwise)",
  },
  {
    key: "log.headStallSeconds",
    kind: {type: "integer", min: 0, max: 86_400},
    placeholder: "seconds",
    optional: true,
    description:
      "warn when no new block came for this long; 0 = never; unset = 3 × the miner's block time, or 3 × the network's target interval (off on regtest without a block time)",
  },
  {
    key: "log.transactions",
    kind: {type: "boolean"},
    optional: true,
    description:
      "an info line per transaction of each new block (hash, from, to or created, status, revert reason, gas), empty blocks at debug; unset, on for regtest and custom",
  },
  {
    key: "wallet.enabled",
    kind: {type: "boolean"},
    description: "the cow accounts as dev accounts (eth_accounts, eth_sendTransaction, eth_sign); regtest only",
  },
  {
    key: "wallet.keystore",
    kind: {type: "boolean"},
    description: "keyfiles under <datadir>/keystore for personal_*; unlocked accounts sign beside the dev accounts",
  },
  {
    key: "wallet.allowDumpRawKey",
    kind: {type: "boolean"},
    description: "let personal_dumpRawKey reveal the private key of an unlocked account",
  },
  {
    key: "wallet.keyDerivations",
    // At most 3 of libuv's 4 pool threads: the database's reads and file I/O keep one.
    kind: {type: "integer", min: 1, max: 3},
    description:
      "keystore key derivations (scrypt, 256 MiB each) running at once on libuv's thread pool; at most 3 of its 4 threads",
  },
  {
    key: "wallet.keyDerivationQueue",
    kind: {type: "integer", min: 0, max: 10_000},
    description: "keystore key derivations waiting for a free one; beyond, personal_* answer -32005 (busy)",
  },
  {
    key: "state.cacheMb",
    kind: CACHE_MIB,
    description:
      "trie-node cache of the world state, in MiB (0 disables it); block assembly and each call worker get a quarter more",
  },
  {
    key: "state.codeCacheMb",
    kind: CACHE_MIB,
    description: "contract code kept by code hash, in MiB; block assembly and each call worker get a quarter more",
  },
  {
    key: "state.readerCacheMb",
    kind: CACHE_MIB,
    description:
      "accounts and storage words of the recent states read (the head and a few before), in MiB; each call worker gets a quarter more",
  },
  {
    key: "state.flat",
    kind: {type: "boolean"},
    description:
      "keep a flat copy of the head's accounts and storage that state reads and eth_call read first, instead of walking the trie (docs/operations.md §13)",
  },
  {
    key: "state.mode",
    kind: {type: "string", choices: ["pruned", "archive"]},
    placeholder: "mode",
    description:
      "pruned: states older than state.retainBlocks blocks are deleted in the background; archive: every state is kept (docs/operations.md §12)",
  },
  {
    key: "state.retainBlocks",
    kind: {type: "integer", min: MIN_RETAIN_BLOCKS, max: 100_000_000},
    placeholder: "blocks",
    description:
      "blocks whose states a pruned node keeps, the head's included; older states answer a 'historical state not available' error, and a reorganization deeper than retainBlocks - 1 blocks is refused (archive follows any)",
  },
  {
    key: "db.cacheMb",
    kind: LEVELDB_MIB,
    description: "LevelDB's block cache (uncompressed table blocks), in MiB",
  },
  {
    key: "db.writeBufferMb",
    kind: LEVELDB_MIB,
    description: "LevelDB's write buffer (memtable; up to two are held at once), in MiB",
  },
  {
    key: "db.minFreeMb",
    kind: {type: "integer", min: 0, max: 1_048_576},
    description:
      "refuse writes (blocks, and transactions with them) while the database's device has less free space, in MiB; 0 = only when the device is full",
  },
];
