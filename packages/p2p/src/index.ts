export {bootnodeProblem} from "./bootnodes.ts";
export {P2PError, P2PErrorCode, type P2PErrorType} from "./errors.ts";
export type {GossipHandler} from "./gossip.ts";
export {IDENTITY_FILE, loadOrCreateIdentity, peerIdOf} from "./identity.ts";
export {P2PNetwork} from "./network.ts";
export {
  DEFAULT_MAX_SCORED_ENTRIES,
  defaultP2POptions,
  defaultPeerScoringOptions,
  MAX_BOOTNODE_LENGTH,
  MAX_BOOTNODES,
  type P2POptions,
  type PeerScoringOptions,
} from "./options.ts";
export {type ProtocolIds, protocolIds} from "./protocols.ts";
export {
  DEFAULT_ADDRESS_PUNISHMENT,
  DEFAULT_NODE_PUNISHMENT,
  PeerScoringManager,
  type PeerScoringModules,
  type PunishmentParameters,
} from "./scoring/index.ts";
export {
  type BlockBody,
  type GossipMessage,
  type GossipVerdict,
  MAX_BODIES_PER_REQUEST,
  MAX_HEADERS_PER_REQUEST,
  type P2PChainView,
  PeerEvent,
  type PeerId,
  type PeerInfo,
  type PeerNetwork,
  type PeerNetworkEvents,
  type PeerScoringInfo,
  type PeerStatus,
  PROTOCOL_VERSION,
  type ReputationSummary,
} from "./types.ts";
export {MAX_PUSHED_TRANSACTIONS} from "./wire/transactions.ts";
