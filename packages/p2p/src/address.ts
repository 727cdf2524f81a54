/** Reading multiaddrs: the IP address (what bans apply to) and the `/p2p/` peer id. */
import type {Multiaddr} from "@multiformats/multiaddr";

/** The IPv4 or IPv6 address of a multiaddr (`/ip4/1.2.3.4/tcp/…` → "1.2.3.4"), if it has one. */
export function ipOf(address: Multiaddr | undefined): string | undefined {
  return address?.getComponents().find((c) => c.name === "ip4" || c.name === "ip6")?.value;
}

/** The last `/p2p/<id>` of a multiaddr, if any. */
export function peerIdIn(address: Multiaddr): string | undefined {
  return address.getComponents().findLast((c) => c.name === "p2p")?.value;
}

/** The multiaddr of an IP literal: `/ip4/…`, or `/ip6/…` for an address with colons. */
export function ipMultiaddr(ip: string): string {
  return `/${ip.includes(":") ? "ip6" : "ip4"}/${ip}`;
}

/** The listen multiaddr of a host and port (`/ip4/…/tcp/…`, or `/ip6/…/tcp/…`). */
export function listenAddress(host: string, port: number): string {
  return `${ipMultiaddr(host)}/tcp/${port}`;
}
