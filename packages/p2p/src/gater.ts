/**
 * The connection gater: libp2p asks it before each dial and at each step of an inbound connection.
 * It refuses banned peer ids and addresses (`PeerScoring.isBanned`) and connections beyond
 * `maxPeers` (a peer we are already connected to is always allowed its second connection).
 */
import type {ConnectionGater, MultiaddrConnection, PeerId} from "@libp2p/interface";
import type {Multiaddr} from "@multiformats/multiaddr";
import {ipOf} from "./address.ts";
import type {PeerScoring} from "./types.ts";

/** What the gater needs to know of the host. */
export interface GaterView {
  scoring: PeerScoring;
  maxPeers: number;
  /** Ids of the peers with an open connection (handshaken or not). */
  connectedPeers(): Set<string>;
}

export function createGater(view: GaterView): ConnectionGater {
  const banned = (peer: PeerId | undefined, address: Multiaddr | undefined): boolean =>
    view.scoring.isBanned(peer?.toString(), ipOf(address));
  const full = (peer: PeerId): boolean => {
    const connected = view.connectedPeers();
    return !connected.has(peer.toString()) && connected.size >= view.maxPeers;
  };
  return {
    denyDialPeer: (peer) => banned(peer, undefined) || full(peer),
    denyDialMultiaddr: (address) => banned(undefined, address),
    denyInboundConnection: (connection: MultiaddrConnection) => banned(undefined, connection.remoteAddr),
    denyInboundEncryptedConnection: (peer, connection) => banned(peer, connection.remoteAddr) || full(peer),
    denyOutboundEncryptedConnection: (peer, connection) => banned(peer, connection.remoteAddr) || full(peer),
  };
}
