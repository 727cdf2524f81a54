/**
 * Peer scoring (docs/protocol/peer-scoring.md): `PeerScoringManager` and the pieces its tests and the RPC
 * layer use.
 */
export {invalidBanAddress, parseBanTarget} from "./banList.ts";
export {ipOfRemoteAddress} from "./ip.ts";
export {PeerScoringManager, type PeerScoringModules} from "./peerScoringManager.ts";
export {
  DEFAULT_ADDRESS_PUNISHMENT,
  DEFAULT_NODE_PUNISHMENT,
  type PunishmentParameters,
  punishmentDuration,
} from "./punishment.ts";
