/**
 * The IP of a remote peer's address; the IP literals themselves are parsed by @xchain/utils.
 */
import {type IpAddress, parseIp} from "@xchain/utils";

/**
 * The IP of a peer's address as the host may report it: a literal (`10.0.0.1`, `::1`) or a multiaddr
 * starting with `/ip4/…` or `/ip6/…` (`/ip4/10.0.0.1/tcp/5050/p2p/…`). Anything else (DNS multiaddrs,
 * zones, garbage) has no IP: such an address is neither scored nor checked against bans.
 */
export function ipOfRemoteAddress(address: string): IpAddress | undefined {
  const match = /^\/(ip4|ip6)\/([^/]+)/.exec(address);
  if (match === null) return parseIp(address);
  const ip = parseIp(match[2]!);
  if (ip === undefined) return undefined;
  // "/ip4/" with an IPv6 literal (or the reverse) is not a valid multiaddr; an IPv4-mapped "/ip6/" is.
  if (match[1] === "ip4" && match[2]!.includes(":")) return undefined;
  if (match[1] === "ip6" && !match[2]!.includes(":")) return undefined;
  return ip;
}
