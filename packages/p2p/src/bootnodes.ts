/**
 * The bootnode list (`p2p.bootnodes`): its limits, what makes an entry invalid, and who it trusts.
 * The keeper that dials them is bootnodeKeeper.ts.
 */
import {peerIdFromString} from "@libp2p/peer-id";
import {multiaddr} from "@multiformats/multiaddr";
import {ipOf, peerIdIn} from "./address.ts";

/**
 * Most bootnodes (`p2p.bootnodes`): each is kept connected and let in past `maxPeers`, so a list
 * longer than a few dozen is a mistake (docs/p2p.md).
 */
export const MAX_BOOTNODES = 64;
/**
 * Longest bootnode multiaddr, in characters: a DNS name (253) with a port and a peer id fits; a
 * longer string is refused before it is parsed (decoding a peer id costs the square of its length).
 */
export const MAX_BOOTNODE_LENGTH = 512;

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
