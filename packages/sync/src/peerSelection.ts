/**
 * Which peer to sync from: the heaviest of those whose total difficulty is above our head's and
 * that are `minBlocksBehind` or more blocks ahead. A heavier peer that is not ahead at all is on
 * another branch (no gossiped block will bring us there), so it qualifies too; one that is a block
 * or so ahead is left to the relay, unless the relay asked for it (a gossiped block of it had an
 * unknown parent). Peers in their cool-down after a failed run wait.
 */
import type {PeerId, PeerInfo} from "@xchain/p2p";
import {equalBytes} from "@xchain/utils";

/** What selection compares peers with. */
export interface SelectionContext {
  head: {number: number; totalDifficulty: bigint};
  genesisHash: Uint8Array;
  minBlocksBehind: number;
  /** Peers the relay asked to sync from. */
  requested: ReadonlySet<PeerId>;
  coolingDown(peer: PeerId): boolean;
}

/** Whether we should sync from `peer`. */
export function isSyncCandidate(peer: PeerInfo, context: SelectionContext): boolean {
  const {status} = peer;
  const {head} = context;
  if (!equalBytes(status.genesisHash, context.genesisHash) || context.coolingDown(peer.id)) return false;
  if (status.totalDifficulty <= head.totalDifficulty) return false;
  return (
    status.bestNumber >= head.number + context.minBlocksBehind ||
    status.bestNumber <= head.number ||
    context.requested.has(peer.id)
  );
}

/** The heaviest candidate (ties: the higher best block, then the peer id), if any. */
export function selectSyncPeer(peers: readonly PeerInfo[], context: SelectionContext): PeerInfo | undefined {
  let best: PeerInfo | undefined;
  for (const peer of peers) {
    if (!isSyncCandidate(peer, context)) continue;
    if (!best || heavier(peer, best)) best = peer;
  }
  return best;
}

function heavier(a: PeerInfo, b: PeerInfo): boolean {
  if (a.status.totalDifficulty !== b.status.totalDifficulty) return a.status.totalDifficulty > b.status.totalDifficulty;
  if (a.status.bestNumber !== b.status.bestNumber) return a.status.bestNumber > b.status.bestNumber;
  return a.id < b.id;
}
