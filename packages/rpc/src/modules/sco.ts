/**
 * The `sco` namespace (docs/protocol/peer-scoring.md): peer reputation and bans, off by default as in rskj. Without a
 * peer-to-peer network every method answers -32601 "not available" with the reason.
 */
import type {RpcMethod} from "../jsonrpc/registry.ts";
import type {ModuleDeps} from "../moduleDeps.ts";
import {string} from "../params/codec.ts";
import {ipAddressOrRange} from "../params/ipAddressOrRange.ts";
import {method, param} from "../params/method.ts";
import {unsupportedMethods} from "./unsupported.ts";

const NAMES = ["banAddress", "unbanAddress", "peerList", "bannedAddresses", "reputationSummary", "clearPeerScoring"];

/** sco_* over the node's peer scoring. */
export function scoMethods({scoring}: Pick<ModuleDeps, "scoring">): Record<string, RpcMethod> {
  if (!scoring) return unsupportedMethods(NAMES, "this node runs no peer-to-peer network to score");
  return {
    /** Handler for `sco_banAddress`: an IP address or CIDR block */
    banAddress: method([param("address", ipAddressOrRange)], (address) => {
      scoring.banAddress(address);
      return null;
    }),
    /** Handler for `sco_unbanAddress` */
    unbanAddress: method([param("address", ipAddressOrRange)], (address) => {
      scoring.unbanAddress(address);
      return null;
    }),
    /** Handler for `sco_peerList` */
    peerList: method([], () => scoring.peerList()),
    /** Handler for `sco_bannedAddresses` */
    bannedAddresses: method([], () => scoring.bannedAddresses()),
    /** Handler for `sco_reputationSummary` */
    reputationSummary: method([], () => scoring.reputationSummary()),
    /** Handler for `sco_clearPeerScoring`: forgets a peer id or address, then lists the peers */
    clearPeerScoring: method([param("peerOrAddress", string)], (peer) => {
      scoring.clear(peer);
      return scoring.peerList();
    }),
  };
}
