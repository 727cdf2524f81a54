/**
 * Peer scoring (docs/protocol/peer-scoring.md, rskj `co/rsk/scoring`): the reputation of peers, by node id
 * and by IP address, and the bans that follow from it; the `sco_*` RPC methods read and drive it.
 *
 * Rules (those of rskj's `PeerScoringManager`, `PeerScoring`, `ScoringCalculator`, `PunishmentCalculator`):
 * - Every event is recorded twice when possible: on the peer id's entry and on its IP address's entry
 *   (either may be missing). Each entry counts every `PeerEvent` and keeps an integer score: INVALID_NETWORK,
 *   INVALID_BLOCK, INVALID_TRANSACTION, INVALID_MESSAGE and INVALID_HEADER drop a positive score to 0 and
 *   take 1; VALID_BLOCK and VALID_TRANSACTION add 1 unless the score is negative; the others only count.
 * - An entry's reputation turns bad at its first INVALID_BLOCK, INVALID_MESSAGE or INVALID_HEADER (since
 *   its last punishment ended): it is then punished until `now + duration`, where duration = initial
 *   duration, grown by `incrementPercent` % for each earlier punishment of that entry, times -score when
 *   the score is negative, at most `maximumMs` (0 = no maximum). Events during a punishment are counted
 *   but neither extend nor repeat it.
 * - When the punishment has expired (checked lazily, on the entry's next event or lookup) the reputation
 *   is good again and the counters and score restart from zero; the punishment count stays.
 * - A peer is banned while its id's or its address's entry is punished, while its address is in a banned
 *   address or CIDR block (`banAddress`), or when its id is in `bannedPeerIds` (configuration).
 * - `punishmentEnabled: false` keeps counting and scoring but never punishes (reputation stays good).
 *
 * Defaults: node ids and addresses both 12 minutes, +10 % per earlier punishment; no maximum for node
 * ids, 6000 minutes (100 h) for addresses (rskj's reference.conf); punishment enabled.
 *
 * Memory: at most `maxNodes` node entries and `maxAddresses` address entries (10,000 each). A new
 * entry beyond the cap evicts the least recently recorded entry with a good reputation (an expired
 * punishment counts as good), so that punished peers keep their bans while any idle well-behaved
 * entry can go; only when every entry is punished does the least recently recorded one go. (rskj keeps
 * 100 node ids in pure LRU order and addresses without limit.) Manual bans are not capped: only the
 * operator adds them.
 *
 * Time comes from `now()` (epoch ms, default `Date.now`), so that tests move the clock.
 *
 * Deviations from rskj: an expired punishment ends before the next event is counted (rskj counts, then
 * wipes the counters, losing that event); `sco_peerList` ids are whole peer ids (rskj: the node id's
 * first 8 hex digits) and RFC 5952 IPv6 text; bans take IP literals only (rskj resolves host names) and
 * accept loopback addresses (rskj refuses them; local tests need them); the memory cap above.
 */
import {type IpAddressOrRange, isLoopback, type Logger, noopLogger} from "@xchain/utils";
import {defaultPeerScoringOptions, type PeerScoringOptions} from "../options.ts";
import type {PeerEvent, PeerId, PeerScoring, PeerScoringInfo, ReputationSummary} from "../types.ts";
import {BanList, parseBanTarget} from "./banList.ts";
import {ipOfRemoteAddress} from "./ip.ts";
import {PeerScore} from "./peerScore.ts";
import {checkPunishmentParameters, type PunishmentParameters, punishmentDuration} from "./punishment.ts";

/** What the scoring works with besides its options. */
export interface PeerScoringModules {
  /** Epoch milliseconds (default `Date.now`). */
  now?: () => number;
  /** Default `noopLogger`. */
  logger?: Logger;
}

/** The event counters `sco_reputationSummary` sums under the names `sco_peerList` gives them. */
const SUMMED_COUNTERS = [
  "successfulHandshakes",
  "failedHandshakes",
  "invalidHeader",
  "validBlocks",
  "invalidBlocks",
  "validTransactions",
  "invalidTransactions",
  "invalidNetworks",
  "invalidMessages",
  "repeatedMessages",
  "timeoutMessages",
  "unexpectedMessages",
] as const satisfies readonly (keyof PeerScoringInfo & keyof ReputationSummary)[];
type SummedCounter = (typeof SUMMED_COUNTERS)[number];

/** Entries of one kind (node ids or addresses), least recently recorded first. */
class ScoreTable {
  private readonly entries = new Map<string, PeerScore>();

  constructor(
    readonly type: "node" | "address",
    readonly parameters: PunishmentParameters,
    private readonly max: number,
  ) {}

  get(key: string): PeerScore | undefined {
    return this.entries.get(key);
  }

  /** The entry of `key`, created if missing (evicting one when full), moved to the most recent end. */
  touch(key: string, now: number): PeerScore {
    let entry = this.entries.get(key);
    if (entry === undefined) {
      if (this.entries.size >= this.max) this.evictOne(now);
      entry = new PeerScore();
    } else {
      this.entries.delete(key);
    }
    this.entries.set(key, entry);
    return entry;
  }

  private evictOne(now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.refresh(now)) {
        this.entries.delete(key);
        return;
      }
    }
    const oldest = this.entries.keys().next();
    if (oldest.done !== true) this.entries.delete(oldest.value);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  infos(now: number): PeerScoringInfo[] {
    const list: PeerScoringInfo[] = [];
    for (const [key, entry] of this.entries) {
      entry.refresh(now);
      list.push(entry.info(key, this.type));
    }
    return list;
  }
}

function checkCap(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${what} must be a positive integer`);
  return value;
}

/** `PeerScoring` as rskj scores peers (see the rules above). */
export class PeerScoringManager implements PeerScoring {
  private readonly now: () => number;
  private readonly punishmentEnabled: boolean;
  private readonly nodes: ScoreTable;
  private readonly addresses: ScoreTable;
  private readonly bans = new BanList();
  private readonly bannedPeerIds: ReadonlySet<string>;
  private readonly logger: Logger;

  /** `opts` override `defaultPeerScoringOptions` (invalid parameters throw a RangeError). */
  constructor(opts: Partial<PeerScoringOptions> = {}, modules: PeerScoringModules = {}) {
    const options = {...defaultPeerScoringOptions, ...opts};
    this.now = modules.now ?? Date.now;
    this.punishmentEnabled = options.punishmentEnabled;
    checkPunishmentParameters(options.nodes, "nodes");
    checkPunishmentParameters(options.addresses, "addresses");
    this.nodes = new ScoreTable("node", options.nodes, checkCap(options.maxNodes, "maxNodes"));
    this.addresses = new ScoreTable("address", options.addresses, checkCap(options.maxAddresses, "maxAddresses"));
    this.bannedPeerIds = new Set(options.bannedPeerIds);
    this.logger = modules.logger ?? noopLogger;
    for (const address of options.bannedAddresses) this.banAddress(parseBanTarget(address));
  }

  record(peer: PeerId | undefined, address: string | undefined, event: PeerEvent): void {
    const now = this.now();
    if (peer !== undefined) this.recordOn(this.nodes, peer, event, now);
    if (address !== undefined) {
      const ip = ipOfRemoteAddress(address);
      // Every peer on this machine shares the loopback address (a local network of nodes): it is
      // scored but never punished, or one bad local peer would cut the node off from all the others.
      if (ip !== undefined) this.recordOn(this.addresses, ip.text, event, now, !isLoopback(ip.bytes));
    }
  }

  /**
   * Unlike rskj, an expired punishment is ended before the event is counted: rskj counts first and
   * then the expiry wipes the counters, so the first event after a punishment (an invalid block
   * included) is lost.
   */
  private recordOn(table: ScoreTable, key: string, event: PeerEvent, now: number, punishable = true): void {
    const entry = table.touch(key, now);
    const goodBefore = entry.refresh(now);
    entry.record(event);
    if (!goodBefore || entry.hasGoodScore() || !this.punishmentEnabled || !punishable) return;
    const duration = punishmentDuration(table.parameters, entry.punishments, entry.score);
    const until = Math.min(now + duration, Number.MAX_SAFE_INTEGER);
    entry.startPunishment(until);
    this.logger.info(
      {type: table.type, id: key, event, durationMs: duration, punishedUntil: until, punishments: entry.punishments},
      "peer punished",
    );
  }

  isBanned(peer: PeerId | undefined, address: string | undefined): boolean {
    const now = this.now();
    if (peer !== undefined) {
      if (this.bannedPeerIds.has(peer)) return true;
      const entry = this.nodes.get(peer);
      if (entry !== undefined && !entry.refresh(now)) return true;
    }
    if (address !== undefined) {
      const ip = ipOfRemoteAddress(address);
      if (ip !== undefined) {
        if (this.bans.contains(ip)) return true;
        const entry = this.addresses.get(ip.text);
        if (entry !== undefined && !entry.refresh(now)) return true;
      }
    }
    return false;
  }

  banAddress(target: IpAddressOrRange): void {
    this.bans.add(target);
    this.logger.info({address: target.given}, "address banned");
  }

  unbanAddress(target: IpAddressOrRange): void {
    this.bans.remove(target);
    this.logger.info({address: target.given}, "address unbanned");
  }

  bannedAddresses(): string[] {
    return this.bans.list();
  }

  /** Node-id entries, then address entries, each least recently recorded first (refreshed first). */
  peerList(): PeerScoringInfo[] {
    const now = this.now();
    return [...this.nodes.infos(now), ...this.addresses.infos(now)];
  }

  /**
   * Sums over `peerList()` (rskj `PeerScoringReporterUtil.buildReputationSummary`), in
   * docs/protocol/peer-scoring.md's field order.
   */
  reputationSummary(): ReputationSummary {
    const peers = this.peerList();
    const sums = Object.fromEntries(SUMMED_COUNTERS.map((counter) => [counter, 0])) as Record<SummedCounter, number>;
    let totalScore = 0;
    let punishments = 0;
    let good = 0;
    for (const info of peers) {
      for (const counter of SUMMED_COUNTERS) sums[counter] += info[counter];
      totalScore += info.score;
      punishments += info.punishments;
      if (info.goodReputation) good++;
    }
    return {
      count: peers.length,
      ...sums,
      peersTotalScore: totalScore,
      punishments,
      goodReputationCount: good,
      badReputationCount: peers.length - good,
    };
  }

  /**
   * `sco_clearPeerScoring`: an IP literal (or `/ip4/`, `/ip6/` multiaddr) clears that address's entry,
   * anything else the node id's entry (rskj tries the address first too). Manual bans stay.
   */
  clear(peerOrAddress: string): void {
    const ip = ipOfRemoteAddress(peerOrAddress);
    if (ip !== undefined) this.addresses.delete(ip.text);
    else this.nodes.delete(peerOrAddress);
  }

  /** Number of node-id and address entries (for metrics and tests). */
  get size(): {nodes: number; addresses: number} {
    return {nodes: this.nodes.size, addresses: this.addresses.size};
  }
}
