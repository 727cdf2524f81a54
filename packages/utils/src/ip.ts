/**
 * IP literals: parsing IPv4 and IPv6 text into bytes, their canonical text, CIDR blocks, and an
 * address or block as `sco_banAddress` takes it (parsed by RPC at the edge, kept by peer scoring).
 * No name resolution: only literals are accepted (rskj's `InetAddress.getByName` would also
 * resolve host names).
 */

/** A parsed IP address: 4 or 16 bytes and its canonical text. */
export interface IpAddress {
  /** 4 bytes (IPv4, IPv4-mapped IPv6 included) or 16 bytes (IPv6). */
  bytes: Uint8Array;
  /** Dotted quad, or RFC 5952 text for IPv6 (lower case, longest run of zero groups as `::`). */
  text: string;
}

/** A CIDR block: the network's bytes with the host bits cleared, and the prefix length in bits. */
export interface CidrBlock {
  network: Uint8Array;
  prefix: number;
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

function parseIPv4(text: string): Uint8Array | undefined {
  const match = IPV4.exec(text);
  if (match === null) return undefined;
  const bytes = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const part = match[i + 1]!;
    // Leading zeros are refused: "010" would be octal to some parsers and decimal to others.
    if (part.length > 1 && part.startsWith("0")) return undefined;
    const value = Number(part);
    if (value > 255) return undefined;
    bytes[i] = value;
  }
  return bytes;
}

function parseIPv6(text: string): Uint8Array | undefined {
  if (text.length === 0 || text.length > 45 || !/^[0-9a-fA-F:.]+$/.test(text)) return undefined;
  const gap = text.indexOf("::");
  if (gap !== -1 && text.indexOf("::", gap + 1) !== -1) return undefined;
  const split = (s: string): string[] => (s === "" ? [] : s.split(":"));
  const left = gap === -1 ? text.split(":") : split(text.slice(0, gap));
  const right = gap === -1 ? [] : split(text.slice(gap + 2));

  // An IPv4 tail (`::ffff:1.2.3.4`) may only end the address (not precede "::"); it stands for two groups.
  const tailList = gap === -1 ? left : right;
  let ipv4Tail: Uint8Array | undefined;
  if (tailList.length > 0 && tailList[tailList.length - 1]!.includes(".")) {
    ipv4Tail = parseIPv4(tailList.pop()!);
    if (ipv4Tail === undefined) return undefined;
  }
  const groups = left.length + right.length + (ipv4Tail === undefined ? 0 : 2);
  if (gap === -1 ? groups !== 8 : groups > 7) return undefined;

  const bytes = new Uint8Array(16);
  const put = (list: string[], start: number): boolean => {
    for (let i = 0; i < list.length; i++) {
      const group = list[i]!;
      if (!HEX_GROUP.test(group)) return false;
      const value = Number.parseInt(group, 16);
      bytes[start + 2 * i] = value >> 8;
      bytes[start + 2 * i + 1] = value & 0xff;
    }
    return true;
  };
  const tailBytes = ipv4Tail === undefined ? 0 : 4;
  if (!put(left, 0)) return undefined;
  if (!put(right, 16 - tailBytes - 2 * right.length)) return undefined;
  if (ipv4Tail !== undefined) bytes.set(ipv4Tail, 12);
  return bytes;
}

/** Whether 16 bytes are an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`). */
function isIPv4Mapped(bytes: Uint8Array): boolean {
  for (let i = 0; i < 10; i++) if (bytes[i] !== 0) return false;
  return bytes[10] === 0xff && bytes[11] === 0xff;
}

/** The canonical text of 4 or 16 bytes. */
export function formatIp(bytes: Uint8Array): string {
  if (bytes.length === 4) return bytes.join(".");
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((bytes[i]! << 8) | bytes[i + 1]!);
  // The longest run of at least two zero groups (the first one on a tie) becomes "::".
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = (list: number[]): string => list.map((g) => g.toString(16)).join(":");
  if (bestStart === -1) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLength))}`;
}

/**
 * Parses an IPv4 or IPv6 literal (no brackets, port or zone). IPv4-mapped IPv6 addresses become IPv4,
 * as Java's `InetAddress` does, so `::ffff:10.0.0.1` and `10.0.0.1` share one scoring entry and bans.
 */
export function parseIp(text: string): IpAddress | undefined {
  let bytes = text.includes(":") ? parseIPv6(text) : parseIPv4(text);
  if (bytes === undefined) return undefined;
  if (bytes.length === 16 && isIPv4Mapped(bytes)) bytes = bytes.slice(12);
  return {bytes, text: formatIp(bytes)};
}

/** Whether all bytes are zero: `0.0.0.0` or `::`, which rskj refuses to ban (`isAnyLocalAddress`). */
export function isUnspecified(bytes: Uint8Array): boolean {
  return bytes.every((b) => b === 0);
}

/** The block of `prefix` bits around `bytes` (host bits cleared). `prefix` must fit the family. */
export function cidrBlock(bytes: Uint8Array, prefix: number): CidrBlock {
  const network = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const bits = Math.min(8, Math.max(0, prefix - 8 * i));
    network[i] = bytes[i]! & ((0xff00 >> bits) & 0xff);
  }
  return {network, prefix};
}

/** Whether an address lies in a block (never across families). */
export function cidrContains(block: CidrBlock, bytes: Uint8Array): boolean {
  if (bytes.length !== block.network.length) return false;
  const full = block.prefix >> 3;
  for (let i = 0; i < full; i++) if (bytes[i] !== block.network[i]) return false;
  const rest = block.prefix & 7;
  if (rest === 0) return true;
  const mask = (0xff00 >> rest) & 0xff;
  return (bytes[full]! & mask) === block.network[full];
}

/** An IP address or a CIDR block, as parsed from `<address>` or `<address>/<bits>`. */
export interface IpAddressOrRange {
  /** The text as given, without surrounding spaces. */
  readonly given: string;
  /** The address as written (for a block, its host bits may be set). */
  readonly ip: IpAddress;
  /** The block, for `<address>/<bits>`. */
  readonly block?: CidrBlock;
  /** Equal for every spelling of the same address or block: its canonical address, or network and prefix. */
  readonly canonical: string;
}

/**
 * Parses an address or block as rskj's `sco_banAddress` accepts it: `<address>` or `<address>/<bits>`
 * (exactly one "/" with text on both sides), the address an IPv4 or IPv6 literal other than the
 * unspecified `0.0.0.0` / `::`, the bits a decimal from 1 to 32 (IPv4) or 128 (IPv6). Surrounding
 * spaces are ignored. Undefined for anything else.
 */
export function parseIpAddressOrRange(text: string): IpAddressOrRange | undefined {
  const given = text.trim();
  const slash = given.indexOf("/");
  const ip = parseIp(slash === -1 ? given : given.slice(0, slash));
  if (ip === undefined || isUnspecified(ip.bytes)) return undefined;
  if (slash === -1) return {given, ip, canonical: ip.text};
  const bitsText = given.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bitsText)) return undefined;
  const prefix = Number(bitsText);
  if (prefix < 1 || prefix > ip.bytes.length * 8) return undefined;
  const block = cidrBlock(ip.bytes, prefix);
  return {given, ip, block, canonical: `${formatIp(block.network)}/${prefix}`};
}

/** `localhost` or an address in 127.0.0.0/8 or ::1 (brackets allowed); `0.0.0.0`, `::` and any other name are not. */
export function isLoopbackHost(host: string): boolean {
  const name = host.trim().toLowerCase();
  if (name === "localhost") return true;
  const ip = parseIp(name.startsWith("[") && name.endsWith("]") ? name.slice(1, -1) : name);
  return ip !== undefined && isLoopback(ip.bytes);
}

/** 127.0.0.0/8 or ::1 (an IPv4-mapped ::ffff:127.x.x.x included). */
export function isLoopback(bytes: Uint8Array): boolean {
  if (bytes.length === 4) return bytes[0] === 127;
  const mapped = bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (mapped) return bytes[12] === 127;
  return bytes.subarray(0, 15).every((b) => b === 0) && bytes[15] === 1;
}
