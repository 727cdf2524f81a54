/**
 * The `admin` namespace (docs/rpc.md §4.2), geth's peer methods: `admin_addPeer` keeps a peer connected
 * from now on (as a bootnode is) and answers `true` once its dial has started; `admin_removePeer` drops
 * it; `admin_nodeInfo` and `admin_peers` in geth's shapes, with libp2p multiaddrs where geth has enode
 * URLs. Off on mainnet and testnet unless configured, as `sco` is. Without a peer-to-peer network every
 * method answers -32601 "not available" with the reason.
 */
import type {RpcMethod} from "../jsonrpc/registry.ts";
import type {ModuleDeps} from "../moduleDeps.ts";
import {string} from "../params/codec.ts";
import {method, param} from "../params/method.ts";
import {unsupportedMethods} from "./unsupported.ts";

const NAMES = ["addPeer", "removePeer", "nodeInfo", "peers"];

/** admin_* over the node's p2p host. */
export function adminMethods({
  peerAdmin,
  clientVersion,
}: Pick<ModuleDeps, "peerAdmin" | "clientVersion">): Record<string, RpcMethod> {
  if (!peerAdmin) return unsupportedMethods(NAMES, "this node runs no peer-to-peer network");
  return {
    /** Handler for `admin_addPeer`: a multiaddr ending in /p2p/<peer id> */
    addPeer: method([param("multiaddr", string)], (address) => {
      peerAdmin.addPeer(address);
      return true;
    }),
    /** Handler for `admin_removePeer` */
    removePeer: method([param("multiaddr", string)], async (address) => {
      await peerAdmin.removePeer(address);
      return true;
    }),
    /** Handler for `admin_nodeInfo` */
    nodeInfo: method([], () => ({...peerAdmin.nodeInfo(), name: clientVersion})),
    /** Handler for `admin_peers` */
    peers: method([], () => peerAdmin.peers()),
  };
}
