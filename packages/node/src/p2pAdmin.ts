/**
 * The `admin_*` view of the node's p2p host (docs/rpc.md §4.2): peers added and removed at run time, and
 * geth's `admin_nodeInfo` / `admin_peers` shapes with libp2p multiaddrs where geth has enode URLs.
 */
import type {Chain} from "@xchain/chain";
import type {Chainspec} from "@xchain/chainspec";
import {type P2PNetwork, PROTOCOL_VERSION, protocolIds} from "@xchain/p2p";
import type {AdminPeerInfo, PeerAdmin} from "@xchain/rpc";
import {bytesToHex, toQuantity} from "@xchain/utils";

export function peerAdminOf(network: P2PNetwork, chainspec: Chainspec, chain: Chain): PeerAdmin {
  const networkId = chainspec.params.p2pNetworkId;
  const ids = protocolIds(networkId);
  const caps = [ids.status, ids.headers, ids.bodies];
  return {
    addPeer: (address) => network.addPeer(address),
    removePeer: (address) => network.removePeer(address),
    nodeInfo: () => {
      const addresses = network.listenAddresses();
      // /ip4/<host>/tcp/<port>/p2p/<id>
      const [, , ip = "", , port = "0"] = (addresses[0] ?? "").split("/");
      const head = chain.head();
      return {
        id: network.peerId,
        enode: addresses[0] ?? "",
        multiaddrs: addresses,
        ip,
        ports: {discovery: 0, listener: Number(port)},
        listenAddr: `${ip.includes(":") ? `[${ip}]` : ip}:${port}`,
        protocols: {
          xchain: {
            network: networkId,
            difficulty: toQuantity(head.totalDifficulty),
            genesis: bytesToHex(chain.genesisHash),
            head: bytesToHex(head.hash),
          },
        },
      };
    },
    peers: () =>
      Promise.all(
        network.peers().map(async (peer): Promise<AdminPeerInfo> => {
          const extras = await network.peerExtras(peer.id);
          return {
            enode: `${peer.remoteAddress}/p2p/${peer.id}`,
            id: peer.id,
            name: extras.agentVersion ?? "",
            caps,
            network: {
              remoteAddress: peer.remoteAddress,
              inbound: peer.inbound,
              trusted: extras.trusted,
              static: extras.kept,
            },
            protocols: {
              xchain: {
                version: PROTOCOL_VERSION,
                difficulty: toQuantity(peer.status.totalDifficulty),
                head: bytesToHex(peer.status.bestHash),
                number: toQuantity(peer.status.bestNumber),
              },
            },
          };
        }),
      ),
  };
}
