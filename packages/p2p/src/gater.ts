/**
 * The connection gater: libp2p asks it before each dial and at each step of an inbound connection.
 * It refuses banned peer ids and addresses (`PeerScoring.isBanned`), inbound handshakes beyond the
 * pending limits (`InboundAdmission`, before any crypto), and connections beyond `maxPeers` (a peer
 * we are already connected to is always allowed its second connection, and a trusted peer, a
 * bootnode, is always let in). Outbound dials are never held back by pending inbound handshakes.
 */
import type {ConnectionGater, MultiaddrConnection, PeerId} from "@libp2p/interface";
import type {Multiaddr} from "@multiformats/multiaddr";
import {ipOf} from "./address.ts";
import type {AdmissionTicket, InboundAdmission} from "./admission.ts";
import type {PeerScoring} from "./types.ts";

/** What the gater needs to know of the host. */
export interface GaterView {
  scoring: PeerScoring;
  maxPeers: number;
  /** Pending inbound handshakes, counted per address and network. */
  admission: InboundAdmission;
  /** Peer ids let in beyond `maxPeers` (the bootnodes). */
  trustedPeers: ReadonlySet<string>;
  /** Ids of the peers with an open connection (handshaken or not). */
  connectedPeers(): Set<string>;
}

export function createGater(view: GaterView): ConnectionGater {
  const tickets = new WeakMap<MultiaddrConnection, AdmissionTicket>();
  const banned = (peer: PeerId | undefined, address: Multiaddr | undefined): boolean =>
    view.scoring.isBanned(peer?.toString(), ipOf(address));
  const full = (peer: PeerId): boolean => {
    if (view.trustedPeers.has(peer.toString())) return false;
    const connected = view.connectedPeers();
    return !connected.has(peer.toString()) && connected.size >= view.maxPeers;
  };
  const admit = (connection: MultiaddrConnection): boolean => {
    const address = ipOf(connection.remoteAddr);
    if (address === undefined) return true;
    const ticket = view.admission.admit(address, () =>
      connection.abort(new Error("handshake evicted by a newer one from a less busy address")),
    );
    if (ticket === undefined) return false;
    tickets.set(connection, ticket);
    connection.addEventListener("close", () => ticket.release(), {once: true});
    return true;
  };
  // The handshake is done (Noise authenticated the peer): its pending slot is free again.
  const handshaken = (connection: MultiaddrConnection): void => tickets.get(connection)?.release();
  return {
    denyDialPeer: (peer) => banned(peer, undefined) || full(peer),
    denyDialMultiaddr: (address) => banned(undefined, address),
    denyInboundConnection: (connection: MultiaddrConnection) =>
      banned(undefined, connection.remoteAddr) || !admit(connection),
    denyInboundEncryptedConnection: (peer, connection) => {
      handshaken(connection);
      return banned(peer, connection.remoteAddr) || full(peer);
    },
    denyOutboundEncryptedConnection: (peer, connection) => banned(peer, connection.remoteAddr) || full(peer),
  };
}
