/**
 * The peers that completed the status handshake, and the events about them. A peer enters on its
 * first valid status (`peerConnected`), its later status messages and block announcements update
 * it (`peerStatus`), and it leaves when its last connection closes (`peerDisconnected`).
 */
import {EventEmitter} from "node:events";
import {equalBytes, type Logger} from "@xchain/utils";
import type {PeerId, PeerInfo, PeerNetworkEvents, PeerStatus} from "./types.ts";

export class PeerBook {
  private readonly peers = new Map<PeerId, PeerInfo>();
  readonly events = new EventEmitter<PeerNetworkEvents>();

  constructor(private readonly log: Logger) {}

  get size(): number {
    return this.peers.size;
  }

  has(id: PeerId): boolean {
    return this.peers.has(id);
  }

  get(id: PeerId): PeerInfo | undefined {
    return this.peers.get(id);
  }

  /** Copies, so that callers cannot change the book. */
  list(): PeerInfo[] {
    return [...this.peers.values()].map((info) => ({...info}));
  }

  /** Adds a handshaken peer and emits `peerConnected`; false when it was already there. */
  add(info: PeerInfo): boolean {
    if (this.peers.has(info.id)) return false;
    this.peers.set(info.id, info);
    this.emit("peerConnected", {...info});
    return true;
  }

  /** Records a peer's new status; emits `peerStatus` when its best block or total difficulty changed. */
  updateStatus(id: PeerId, status: PeerStatus): void {
    const info = this.peers.get(id);
    if (!info) return;
    const changed =
      !equalBytes(info.status.bestHash, status.bestHash) || info.status.totalDifficulty !== status.totalDifficulty;
    info.status = status;
    if (changed) this.emit("peerStatus", {...info});
  }

  /** Removes a peer and emits `peerDisconnected` (nothing when it was not handshaken). */
  remove(id: PeerId): void {
    if (this.peers.delete(id)) this.emit("peerDisconnected", id);
  }

  private emit<E extends keyof PeerNetworkEvents>(event: E, ...args: PeerNetworkEvents[E]): void {
    try {
      (this.events.emit as (e: E, ...a: PeerNetworkEvents[E]) => boolean)(event, ...args);
    } catch (e) {
      this.log.error({event, err: e}, "a p2p event listener threw");
    }
  }
}
