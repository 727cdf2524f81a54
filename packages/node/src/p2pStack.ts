/**
 * The node on the network: the libp2p host with its identity in the data directory, peer
 * scoring, the sync manager and the relay, and the views RPC reads them through (`net_*`,
 * `eth_syncing`, `sco_*`, `debug_wireProtocolQueueSize`). Peers joining and leaving are logged
 * (log/peerLog.ts); the blocks a sync imports are summarized by the block log (log/blockLog.ts).
 */
import {type Chain, SenderRecovery} from "@xchain/chain";
import type {Chainspec} from "@xchain/chainspec";
import {
  defaultPeerScoringOptions,
  loadOrCreateIdentity,
  P2PNetwork,
  type P2POptions,
  type PeerInfo,
  PeerScoringManager,
} from "@xchain/p2p";
import type {PeerAdmin, PeerScoringAdmin, PeersInfo, SyncStatusSource, WireQueue} from "@xchain/rpc";
import {defaultRelayOptions, Relay, SyncManager, type SyncOptions, type SyncProgress} from "@xchain/sync";
import type {TxPool} from "@xchain/txpool";
import {logPeerEvents} from "./log/peerLog.ts";
import type {Logger} from "./logger.ts";
import type {AnnouncedHead} from "./metrics/readiness.ts";
import {peerAdminOf} from "./p2pAdmin.ts";
import {syncStatusOf} from "./syncStanding.ts";

/** What `startP2P` builds: RPC's views, the listen addresses, and `close`. */
export interface P2PStack {
  peers: PeersInfo;
  sync: SyncStatusSource;
  scoring: PeerScoringAdmin;
  /** `admin_*`: peers added at run time, node and peer info. */
  admin: PeerAdmin;
  /** The received messages the p2p layer has not finished handling (`debug_wireProtocolQueueSize`). */
  wireQueue: WireQueue;
  /** Multiaddrs with `/p2p/<peer id>`. */
  addresses: string[];
  /** The head a connected peer announces with the highest total difficulty (`GET /ready`); undefined without peers. */
  bestPeer(): AnnouncedHead | undefined;
  /** The running sync's progress and rate (metrics); undefined when not syncing. */
  syncProgress(): SyncProgress | undefined;
  /** The sync manager's events (metrics count its runs). */
  syncEvents: SyncManager["events"];
  /** Whether a peer has ever completed the status handshake. */
  hasSeenPeer(): boolean;
  /** Bootnodes are configured and no peer has been seen yet: not synced (`eth_syncing`, `GET /ready`; syncStanding.ts). */
  awaitingFirstPeer(): boolean;
  close(): Promise<void>;
}

/** What the stack runs over. */
export interface P2PStackDeps {
  chainspec: Chainspec;
  chain: Chain;
  txpool: TxPool;
  dataDir: string;
  logger: Logger;
}

/** Starts the host, then sync and the relay; on failure stops what it started and rethrows. */
export async function startP2P(
  options: {p2p: P2POptions; sync: SyncOptions},
  {chainspec, chain, txpool, dataDir, logger}: P2PStackDeps,
): Promise<P2PStack> {
  const log = logger.child({module: "p2p"});
  const scoring = new PeerScoringManager(defaultPeerScoringOptions, {logger: log});
  const network = await P2PNetwork.start(options.p2p, {
    privateKey: await loadOrCreateIdentity(dataDir),
    networkId: chainspec.params.p2pNetworkId,
    decodeOptions: {rules: chainspec, chainId: chainspec.params.chainId},
    chain,
    scoring,
    logger: log,
  });
  const syncLog = logger.child({module: "sync"});
  // The senders of downloaded blocks are recovered on another core while the blocks before them import.
  const senderRecovery = new SenderRecovery();
  const modules = {network, chainspec, chain, txpool, senderRecovery, logger: syncLog};
  const sync = new SyncManager(options.sync, modules);
  const relay = new Relay(defaultRelayOptions, {...modules, sync});
  sync.start();
  relay.start();
  const stopPeerLog = logPeerEvents(network, log);
  let seenPeer = false;
  const firstPeer = () => {
    seenPeer = true;
    network.off("peerConnected", firstPeer);
  };
  network.on("peerConnected", firstPeer);
  const awaitingFirstPeer = () => !seenPeer && options.p2p.bootnodes.length > 0;
  return {
    peers: {
      peerCount: () => network.peers().length,
      peerList: () => network.peers().map(formatPeer),
      listening: () => network.listening(),
    },
    sync: {
      syncStatus: () => syncStatusOf(sync.progress(), awaitingFirstPeer(), chain.head().number),
      onSyncChange: (listener) => onSyncChange(sync, listener),
    },
    // RPC parses the addresses and blocks; the scoring's entries are its DTOs as they are.
    scoring,
    admin: peerAdminOf(network, chainspec, chain),
    wireQueue: {queueSize: () => network.queuedMessages()},
    addresses: network.listenAddresses(),
    bestPeer: () => heaviestPeer(network.peers()),
    syncProgress: () => sync.progress(),
    syncEvents: sync.events,
    hasSeenPeer: () => seenPeer,
    awaitingFirstPeer,
    close: async () => {
      network.off("peerConnected", firstPeer);
      stopPeerLog();
      relay.stop();
      await sync.stop();
      await network.stop();
      await senderRecovery.close();
    },
  };
}

/** The head announced with the highest total difficulty (the higher number on a tie); undefined without peers. */
export function heaviestPeer(peers: readonly PeerInfo[]): AnnouncedHead | undefined {
  let best: AnnouncedHead | undefined;
  for (const {status} of peers) {
    const heavier =
      best === undefined ||
      status.totalDifficulty > best.totalDifficulty ||
      (status.totalDifficulty === best.totalDifficulty && status.bestNumber > best.number);
    if (heavier) best = {number: status.bestNumber, totalDifficulty: status.totalDifficulty};
  }
  return best;
}

/** Calls `listener` with the status when a sync starts and with undefined when the node is synced again. */
function onSyncChange(sync: SyncManager, listener: (status: SyncProgress | undefined) => void): () => void {
  let syncing = sync.progress() !== undefined;
  const started = ({progress}: {progress: SyncProgress}) => {
    syncing = true;
    listener(progress);
  };
  const synced = () => {
    if (!syncing) return;
    syncing = false;
    listener(undefined);
  };
  sync.events.on("started", started);
  sync.events.on("synced", synced);
  return () => {
    sync.events.off("started", started);
    sync.events.off("synced", synced);
  };
}

/**
 * docs/rpc.md §4.2: the full peer id (what `admin_addPeer`, `sco_clearPeerScoring` and bootnode lists
 * take), `@`, then host and port (an IPv6 host in brackets).
 */
export function formatPeer(peer: Pick<PeerInfo, "id" | "remoteAddress">): string {
  const parts = peer.remoteAddress.split("/");
  // /ip4/<host>/tcp/<port>/… or /ip6/<host>/tcp/<port>/…
  const host = parts[1] === "ip6" ? `[${parts[2]}]` : parts[2];
  const hostPort = parts.length >= 5 ? `${host}:${parts[4]}` : peer.remoteAddress;
  return `${peer.id}@${hostPort}`;
}
