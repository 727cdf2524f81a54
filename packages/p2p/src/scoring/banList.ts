/**
 * Manually banned addresses and CIDR blocks (rskj `InetAddressTable`, `InetAddressUtils`,
 * `InetAddressCidrBlock`), driven by `sco_banAddress` / `sco_unbanAddress` and the configuration.
 */

import {
  type CidrBlock,
  cidrContains,
  type IpAddress,
  type IpAddressOrRange,
  parseIpAddressOrRange,
} from "@xchain/utils";
import {P2PError, P2PErrorCode} from "../errors.ts";

/**
 * The error of an invalid ban: `P2PError` INVALID_BAN_ADDRESS, worded as rskj's `sco_banAddress` /
 * `sco_unbanAddress` answer it with -32602 (`invalid banned address <x>`), so RPC can pass it on as is.
 */
export function invalidBanAddress(address: string): P2PError {
  return new P2PError({code: P2PErrorCode.INVALID_BAN_ADDRESS, address});
}

/**
 * A ban from the configuration's text (`parseIpAddressOrRange`, rskj's rules for `sco_banAddress`);
 * throws `P2PError` INVALID_BAN_ADDRESS for anything else.
 */
export function parseBanTarget(input: string): IpAddressOrRange {
  const target = typeof input === "string" ? parseIpAddressOrRange(input) : undefined;
  if (target === undefined) throw invalidBanAddress(String(input));
  return target;
}

/** The banned addresses and blocks. */
export class BanList {
  /** Canonical address → the ban as given. */
  private readonly addresses = new Map<string, string>();
  /** Canonical network/prefix → the block and the ban as given. */
  private readonly blocks = new Map<string, {block: CidrBlock; given: string}>();

  /** Bans an address or block; banning one already banned (in any spelling) keeps the first text. */
  add(target: IpAddressOrRange): void {
    if (target.block === undefined) {
      if (!this.addresses.has(target.canonical)) this.addresses.set(target.canonical, target.given);
    } else if (!this.blocks.has(target.canonical)) {
      this.blocks.set(target.canonical, {block: target.block, given: target.given});
    }
  }

  /**
   * Lifts a ban given in any spelling of the same address, or of the same block (`10.1.2.3/8` lifts
   * `10.0.0.0/8`). An address inside a banned block stays banned: only the block's own ban lifts it.
   */
  remove(target: IpAddressOrRange): void {
    if (target.block === undefined) this.addresses.delete(target.canonical);
    else this.blocks.delete(target.canonical);
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
