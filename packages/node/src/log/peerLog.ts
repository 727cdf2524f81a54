/** Peers joining and leaving, at info with the peer count (`peer …Xy3kQe9P connected (2 peers)`). */
import type {PeerId, PeerInfo, PeerNetwork} from "@xchain/p2p";
import type {Logger} from "@xchain/utils";
import {shortPeerId} from "./format.ts";

/** Logs the network's peer events; returns the unsubscribe. */
export function logPeerEvents(network: Pick<PeerNetwork, "on" | "off" | "peers">, logger: Logger): () => void {
  const count = () => {
    const n = network.peers().length;
    return `${n} peer${n === 1 ? "" : "s"}`;
  };
  const connected = (peer: PeerInfo) =>
    logger.info(
      {peer: peer.id, address: peer.remoteAddress, peers: network.peers().length},
      `peer ${shortPeerId(peer.id)} connected (${count()})`,
    );
  const disconnected = (id: PeerId) =>
    logger.info({peer: id, peers: network.peers().length}, `peer ${shortPeerId(id)} disconnected (${count()})`);
  network.on("peerConnected", connected);
  network.on("peerDisconnected", disconnected);
  return () => {
    network.off("peerConnected", connected);
    network.off("peerDisconnected", disconnected);
  };
}
