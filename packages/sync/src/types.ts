/**
 * The contract of the sync package (issue 5): catching up with the heaviest peer (headers first,
 * bodies from several peers, import through the chain's full validation) and the relay that keeps
 * a synced node at the tip (gossiped blocks and transactions in, our new blocks and admitted
 * transactions out). Both run over the p2p package's `PeerNetwork`.
 */

import type {EventEmitter} from "node:events";
import type {ChainEvents, ChainReader, ImportResult} from "@xchain/chain";
import type {Chainspec} from "@xchain/chainspec";
import type {Block, Transaction} from "@xchain/primitives";
import type {TxPoolAddResult} from "@xchain/txpool";

/** The chain as sync and the relay drive it. */
export interface SyncChain extends Pick<ChainReader, "head" | "getHeader" | "getHeaderByNumber" | "getBlock"> {
  readonly genesisHash: Uint8Array;
  readonly events: EventEmitter<ChainEvents>;
  importBlock(block: Block | Uint8Array): Promise<ImportResult>;
}

/** The txpool as the relay uses it. */
export interface SyncTxPool {
  add(tx: Transaction): Promise<TxPoolAddResult>;
  get(hash: Uint8Array): Transaction | undefined;
  /** Fires with each transaction that becomes pending. */
  onPending(listener: (tx: Transaction) => void): () => void;
}

/** Progress of a sync, for `eth_syncing` (rpc-api §2.8) and the progress line. */
export interface SyncProgress {
  startingBlock: number;
  currentBlock: number;
  highestBlock: number;
  /** Blocks imported per second over the last few seconds. */
  blocksPerSecond: number;
}

/** The `[sync]` section of node.config.toml. */
export interface SyncOptions {
  /** Headers asked per request (at most the p2p cap). */
  headersPerRequest: number;
  /** Bodies asked per request (at most the p2p cap). */
  bodiesPerRequest: number;
  /** Body requests in flight at once, over different peers when there are several. */
  parallelBodyRequests: number;
  /** Sync starts when a peer's total difficulty is above ours and its best block is this many blocks ahead or more. */
  minBlocksBehind: number;
}

/** What the sync manager and the relay need besides the network. */
export interface SyncDeps {
  chainspec: Chainspec;
  chain: SyncChain;
  txpool: SyncTxPool;
  /** Epoch seconds, for the header timestamp rule (tests pass a fixed clock). */
  nowSeconds?: () => number;
  logger?: SyncLogger;
}

/** A pino-shaped logger. */
export interface SyncLogger {
  debug(context: object, message: string): void;
  info(context: object, message: string): void;
  warn(context: object, message: string): void;
}
