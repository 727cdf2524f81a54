/**
 * The contract of the sync package: catching up with the heaviest peer (headers first,
 * bodies from several peers, import through the chain's full validation) and the relay that keeps
 * a synced node at the tip (gossiped blocks and transactions in, our new blocks and admitted
 * transactions out). Both run over the p2p package's `PeerNetwork`.
 */

import type {EventEmitter} from "node:events";
import type {ChainEvents, ChainReader, ImportResult} from "@xchain/chain";
import type {Chainspec} from "@xchain/chainspec";
import type {PeerId, PeerNetwork} from "@xchain/p2p";
import type {Block, Transaction} from "@xchain/primitives";
import type {TxPoolAddResult} from "@xchain/txpool";
import type {Logger} from "@xchain/utils";

/** The chain as sync and the relay drive it. */
export interface SyncChain extends Pick<ChainReader, "head" | "getHeader" | "getHeaderByNumber" | "getBlock"> {
  readonly genesisHash: Uint8Array;
  readonly events: EventEmitter<ChainEvents>;
  importBlock(block: Block | Uint8Array): Promise<ImportResult>;
  /** The oldest block whose state the chain serves: a branch forking below it cannot be executed (`Chain.oldestStateBlock`). */
  oldestStateBlock(): number;
}

/**
 * Sender recovery on another core (the chain's `SenderRecovery`): the signers of `transactions`
 * recovered and handed to them; rejects when its worker stopped.
 */
export interface SyncSenderRecovery {
  recover(transactions: readonly Transaction[]): Promise<void>;
}

/** The txpool as the relay uses it. */
export interface SyncTxPool {
  add(tx: Transaction): Promise<TxPoolAddResult>;
  get(hash: Uint8Array): Transaction | undefined;
  /** Every pending transaction (pushed to a peer that connects). */
  pending(): Transaction[];
  /** Fires with each transaction that becomes pending. */
  onPending(listener: (tx: Transaction) => void): () => void;
}

/** Progress of a sync, for `eth_syncing` (docs/rpc.md §2.8) and the progress line. */
export interface SyncProgress {
  startingBlock: number;
  currentBlock: number;
  highestBlock: number;
  /** Blocks imported per second over the last few seconds. */
  blocksPerSecond: number;
}

/** What the sync manager and the relay work with (their modules). */
export interface SyncModules {
  network: PeerNetwork;
  chainspec: Chainspec;
  chain: SyncChain;
  txpool: SyncTxPool;
  /**
   * Recovers the senders of downloaded blocks while the blocks before them import (docs/performance.md §3);
   * default none: the import recovers them.
   */
  senderRecovery?: SyncSenderRecovery;
  /** Epoch seconds, for the header timestamp rule (tests pass a fixed clock). */
  nowSeconds?: () => number;
  /** Default: writes nothing. */
  logger?: Logger;
}

/** Why a sync run ended: caught up with the peer, or stopped early (`error`, a `SyncError`). */
export interface SyncRunResult {
  peer: PeerId;
  /** Blocks the run imported that were not stored before. */
  imported: number;
  /** Set when the run ended early; the manager goes on with other peers. */
  error?: Error;
}

/** Events of `SyncManager`. */
export interface SyncEvents {
  /** A sync started after the node was idle. */
  started: [{peer: PeerId; progress: SyncProgress}];
  /** After each block the sync imported. */
  progress: [SyncProgress];
  /** A run from one peer ended (caught up with it, or `error`). */
  runEnded: [SyncRunResult];
  /** No peer is ahead any more: the relay follows the tip (`progress()` is undefined again). */
  synced: [{number: number; hash: Uint8Array}];
}

/** What the relay asks of the sync manager. */
export interface SyncTrigger {
  /**
   * A gossiped block from `peer` has an unknown parent: sync from that peer if its total difficulty
   * is above ours, however few blocks it is ahead.
   */
  requestSync(peer: PeerId): void;
  /** Whether the sync imported this block (blocks imported by sync are not gossiped again). */
  importedBySync(hash: Uint8Array): boolean;
}

/** The relay's modules: the sync's, and the sync manager. */
export interface RelayModules extends SyncModules {
  /** Where blocks with an unknown parent go; without it such blocks are only ignored. */
  sync?: SyncTrigger;
}
