/** What the host's parts (status, requests, serving, gossip) share: the libp2p node and the peer book. */
import type {GossipSub} from "@libp2p/gossipsub";
import type {Identify} from "@libp2p/identify";
import type {Libp2p} from "@libp2p/interface";
import type {Ping} from "@libp2p/ping";
import type {Logger} from "@xchain/utils";
import type {InboundQueue} from "./inboundQueue.ts";
import type {P2POptions} from "./options.ts";
import type {PeerBook} from "./peerBook.ts";
import type {ProtocolIds} from "./protocols.ts";
import type {P2PModules, PeerEvent, PeerId} from "./types.ts";

export type HostServices = {identify: Identify; ping: Ping; pubsub: GossipSub};
export type Host = Libp2p<HostServices>;

export interface NetworkContext {
  readonly host: Host;
  readonly ids: ProtocolIds;
  readonly options: P2POptions;
  readonly deps: P2PModules;
  readonly peers: PeerBook;
  readonly log: Logger;
  /** Counts the received messages not yet handled (`P2PNetwork.queuedMessages`). */
  readonly inbound: InboundQueue;
  /** Aborted when the network stops: every request and read in flight ends. */
  readonly shutdown: AbortSignal;
  /** Scores a peer, and hangs up on it when that bans it (then true). */
  report(peer: PeerId, event: PeerEvent): boolean;
  /** Closes every connection with a peer (no score). */
  hangUp(peer: PeerId, reason: string): void;
  /**
   * The status handshake with a peer failed: `wrongNetwork` when it is of another network, genesis or
   * protocol version (the bootnode keeper warns about its bootnodes, docs/p2p.md "Bootnodes").
   */
  handshakeFailed(peer: PeerId, reason: string, wrongNetwork: boolean): void;
}

/** A signal that fires after `timeoutMs` or at shutdown. */
export function deadline(context: NetworkContext, timeoutMs: number): AbortSignal {
  return AbortSignal.any([AbortSignal.timeout(timeoutMs), context.shutdown]);
}
