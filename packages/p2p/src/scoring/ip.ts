/**
 * The IP of a remote peer's address and the loopback rule of peer scoring; the IP literals
 * themselves are parsed by @xchain/utils.
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

/** 127.0.0.0/8 or ::1 (an IPv4-mapped ::ffff:127.x.x.x included). */
export function isLoopback(bytes: Uint8Array): boolean {
  if (bytes.length === 4) return bytes[0] === 127;
  const mapped = bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (mapped) return bytes[12] === 127;
  return bytes.subarray(0, 15).every((b) => b === 0) && bytes[15] === 1;
}
