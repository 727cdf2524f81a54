/**
 * The bootnode list (`p2p.bootnodes`): what makes an entry invalid, and who it trusts (its limits are
 * in options.ts, beside the option). The keeper that dials them is bootnodeKeeper.ts.
 */
import {peerIdFromString} from "@libp2p/peer-id";
import {multiaddr} from "@multiformats/multiaddr";
import {ipOf, peerIdIn} from "./address.ts";
import {MAX_BOOTNODE_LENGTH} from "./options.ts";

/** Who the bootnodes are: their peer ids and IP addresses (DNS multiaddrs have none). */
export interface TrustedPeers {
  peerIds: Set<string>;
  addresses: Set<string>;
}

/** The peer ids and IPs of bootnode multiaddrs: the gater lets them in past the inbound limits. */
export function trustedPeersOf(bootnodes: readonly string[]): TrustedPeers {
  const trusted: TrustedPeers = {peerIds: new Set(), addresses: new Set()};
  for (const text of bootnodes) {
    const address = multiaddr(text);
    const peer = peerIdIn(address);
    const ip = ipOf(address);
    if (peer !== undefined) trusted.peerIds.add(peer);
    if (ip !== undefined) trusted.addresses.add(ip);
  }
  return trusted;
}

/** Why `text` cannot be a bootnode (not a multiaddr, or no valid `/p2p/<peer id>` at its end), or undefined. */
export function bootnodeProblem(text: string): string | undefined {
  if (text.length > MAX_BOOTNODE_LENGTH) return `it has ${text.length} characters (at most ${MAX_BOOTNODE_LENGTH})`;
  let peer: string | undefined;
  try {
    peer = peerIdIn(multiaddr(text));
  } catch (e) {
    return (e as Error).message;
  }
  if (peer === undefined) return "it must end in /p2p/<peer id> (xchain p2p-id prints a node's)";
  try {
    peerIdFromString(peer);
  } catch {
    return `${peer} is not a peer id`;
  }
  return undefined;
}
