/**
 * The highest block the peer's canonical chain shares with ours. Canonical chains share a prefix
 * (from the genesis block up to the fork point), so "the peer's header at n is our canonical block
 * at n" holds up to the fork point and not above: one request for the top window (most forks are
 * shallow), then a binary search below it, one header per request. The answer is only as honest
 * as the peer: the headers downloaded next must extend it, which `checkHeaderBatch` checks.
 */
import type {PeerNetwork} from "@xchain/p2p";
import type {BlockHeader} from "@xchain/primitives";
import {equalBytes} from "@xchain/utils";
import {SyncError, SyncErrorCode} from "./errors.ts";
import {requestFromPeer} from "./requests.ts";
import type {SyncChain} from "./types.ts";

/** What the search needs. */
export interface AncestorSearch {
  network: PeerNetwork;
  chain: SyncChain;
  peer: string;
  /** The peer's best block number (its status). */
  peerBestNumber: number;
  /** Headers of the first request (the top window). */
  windowSize: number;
}

/** Our canonical header at the highest number where the peer has the same block. */
export async function findCommonAncestor(search: AncestorSearch): Promise<BlockHeader> {
  const {network, chain, peer} = search;
  const top = Math.min(chain.head().number, search.peerBestNumber);
  const start = Math.max(0, top - search.windowSize + 1);
  const window = await requestFromPeer(peer, "headers by number", () =>
    network.getHeadersByNumber(peer, start, top - start + 1),
  );
  for (let i = window.length - 1; i >= 0; i--) {
    const header = window[i] as BlockHeader;
    if (header.number !== start + i) {
      throw new SyncError({code: SyncErrorCode.UNEXPECTED_HEADERS, peer, expected: start + i, actual: header.number});
    }
    const ours = await sameBlock(chain, header);
    if (ours) return ours;
  }
  if (start === 0) throw new SyncError({code: SyncErrorCode.NO_COMMON_ANCESTOR, peer});

  // Block 0 is common (the handshake compares genesis hashes; the window above ends it otherwise); `start` is not.
  let low = 0;
  let high = start;
  let lowHeader: BlockHeader | undefined;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    const [header] = await requestFromPeer(peer, "headers by number", () =>
      network.getHeadersByNumber(peer, middle, 1),
    );
    // The peer's chain got shorter under us: nothing to go on.
    if (!header) throw new SyncError({code: SyncErrorCode.PEER_REORGED, peer, number: middle});
    if (header.number !== middle) {
      throw new SyncError({code: SyncErrorCode.UNEXPECTED_HEADERS, peer, expected: middle, actual: header.number});
    }
    const ours = await sameBlock(chain, header);
    if (ours) {
      low = middle;
      lowHeader = ours;
    } else {
      high = middle;
    }
  }
  if (lowHeader) return lowHeader;
  const genesis = await chain.getHeaderByNumber(0);
  if (!genesis || !equalBytes(genesis.hash(), chain.genesisHash)) {
    throw new SyncError({code: SyncErrorCode.NO_COMMON_ANCESTOR, peer});
  }
  return genesis;
}

/** Our canonical header at `header.number` when it is the same block. */
async function sameBlock(chain: SyncChain, header: BlockHeader): Promise<BlockHeader | undefined> {
  const ours = await chain.getHeaderByNumber(header.number);
  return ours && equalBytes(ours.hash(), header.hash()) ? ours : undefined;
}
