/**
 * Manually banned addresses and CIDR blocks (rskj `InetAddressTable`, `InetAddressUtils`,
 * `InetAddressCidrBlock`), driven by `sco_banAddress` / `sco_unbanAddress` and the configuration.
 */
import {P2PError, P2PErrorCode} from "../errors.ts";
import {type CidrBlock, cidrBlock, cidrContains, formatIp, type IpAddress, isUnspecified, parseIp} from "./ip.ts";

/** A parsed ban: one address, or a block (`prefix` set). */
export interface BanTarget {
  /** The text as given (trimmed), which `bannedAddresses()` lists. */
  given: string;
  /** Identity of the ban: the canonical address, or the canonical network and the prefix. */
  key: string;
  ip: IpAddress;
  block?: CidrBlock;
}

/**
 * The error of an invalid ban: `P2PError` INVALID_BAN_ADDRESS, worded as rskj's `sco_banAddress` /
 * `sco_unbanAddress` answer it with -32602 (`invalid banned address <x>`), so RPC can pass it on as is.
 */
export function invalidBanAddress(address: string): P2PError {
  return new P2PError({code: P2PErrorCode.INVALID_BAN_ADDRESS, address});
}

/**
 * Parses `sco_banAddress`'s argument as rskj does: `<address>` or `<address>/<bits>` (exactly one "/"
 * with text on both sides), the address an IPv4 or IPv6 literal other than the unspecified `0.0.0.0` /
 * `::`, the bits a decimal from 1 to 32 (IPv4) or 128 (IPv6). Surrounding spaces are ignored.
 * Throws `P2PError` INVALID_BAN_ADDRESS otherwise.
 */
export function parseBanTarget(input: string): BanTarget {
  if (typeof input !== "string") throw invalidBanAddress(String(input));
  const given = input.trim();
  const slash = given.indexOf("/");
  const addressText = slash === -1 ? given : given.slice(0, slash);
  const ip = parseIp(addressText);
  if (ip === undefined || isUnspecified(ip.bytes)) throw invalidBanAddress(input);
  if (slash === -1) return {given, key: ip.text, ip};

  const bitsText = given.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bitsText)) throw invalidBanAddress(input);
  const prefix = Number(bitsText);
  if (prefix < 1 || prefix > ip.bytes.length * 8) throw invalidBanAddress(input);
  const block = cidrBlock(ip.bytes, prefix);
  return {given, key: `${formatIp(block.network)}/${prefix}`, ip, block};
}

/** The banned addresses and blocks. */
export class BanList {
  /** Canonical address → the ban as given. */
  private readonly addresses = new Map<string, string>();
  /** Canonical network/prefix → the block and the ban as given. */
  private readonly blocks = new Map<string, {block: CidrBlock; given: string}>();

  /** Bans an address or block; banning one already banned (in any spelling) keeps the first text. */
  add(target: BanTarget): void {
    if (target.block === undefined) {
      if (!this.addresses.has(target.key)) this.addresses.set(target.key, target.given);
    } else if (!this.blocks.has(target.key)) {
      this.blocks.set(target.key, {block: target.block, given: target.given});
    }
  }

  /**
   * Lifts a ban given in any spelling of the same address, or of the same block (`10.1.2.3/8` lifts
   * `10.0.0.0/8`). An address inside a banned block stays banned: only the block's own ban lifts it.
   */
  remove(target: BanTarget): void {
    if (target.block === undefined) this.addresses.delete(target.key);
    else this.blocks.delete(target.key);
  }

  /** Whether an address is banned, by itself or by a block holding it. */
  contains(ip: IpAddress): boolean {
    if (this.addresses.has(ip.text)) return true;
    for (const {block} of this.blocks.values()) if (cidrContains(block, ip.bytes)) return true;
    return false;
  }

  /** The bans as given: addresses first, then blocks (as rskj lists them), each in the order banned. */
  list(): string[] {
    return [...this.addresses.values(), ...[...this.blocks.values()].map((b) => b.given)];
  }
}
