/**
 * Whether the node may call itself synced (docs/running-a-network.md): a node that has never seen
 * a peer on a network with bootnodes does not know the network's head, so `eth_syncing` and
 * `/ready` must not say "synced"; on mainnet and testnet mining work is refused until the node has
 * seen a peer and is not behind, unless `miner.allowSolo` (docs/mining.md).
 */
import type {SyncStatus} from "@xchain/rpc";
import type {NetworkChoice} from "./network.ts";

/** What the rules read of the node on the network; undefined when p2p is off. */
export interface PeerStanding {
  /** Whether a peer has ever completed the status handshake. */
  hasSeenPeer(): boolean;
  /** The running sync's progress; undefined when not syncing. */
  syncProgress(): SyncStatus | undefined;
}

/**
 * `eth_syncing`'s status: the running sync's, else, while the node waits for its first peer with
 * bootnodes configured, a sync that has not begun (every field the head, docs/rpc.md §2.8).
 */
export function syncStatusOf(
  progress: SyncStatus | undefined,
  awaitingFirstPeer: boolean,
  headNumber: number,
): SyncStatus | undefined {
  if (progress || !awaitingFirstPeer) return progress;
  return {startingBlock: headNumber, currentBlock: headNumber, highestBlock: headNumber};
}

/** Why mining work on the head may be a dead fork on mainnet or testnet; undefined when synced, and always on other networks. */
export function workNotSyncedReason(network: NetworkChoice, p2p: PeerStanding | undefined): string | undefined {
  if (network !== "mainnet" && network !== "testnet") return undefined;
  if (!p2p) return `this ${network} node runs without p2p (p2p.enabled = false)`;
  if (!p2p.hasSeenPeer()) return `this ${network} node has not seen a peer yet`;
  const progress = p2p.syncProgress();
  if (progress) return `this ${network} node is syncing (block ${progress.currentBlock} of ${progress.highestBlock})`;
  return undefined;
}
