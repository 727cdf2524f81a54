import type {PeerScoringInfo, ReputationSummary} from "@xchain/p2p";
import type {IpAddressOrRange} from "@xchain/utils";
import type {PeerScoringAdmin} from "../../src/index.ts";

const COUNTERS = {
  successfulHandshakes: 1,
  failedHandshakes: 0,
  invalidNetworks: 0,
  repeatedMessages: 0,
  validBlocks: 2,
  validTransactions: 0,
  invalidBlocks: 0,
  invalidTransactions: 0,
  invalidMessages: 0,
  timeoutMessages: 0,
  unexpectedMessages: 0,
  invalidHeader: 0,
};

/** A scoring that remembers the calls, with one fixed peer. */
export class RecordingScoring implements PeerScoringAdmin {
  readonly banned: string[] = [];
  readonly cleared: string[] = [];

  banAddress(target: IpAddressOrRange): void {
    this.banned.push(target.given);
  }

  unbanAddress(target: IpAddressOrRange): void {
    this.banned.splice(this.banned.indexOf(target.given), 1);
  }

  bannedAddresses(): string[] {
    return [...this.banned];
  }

  peerList(): PeerScoringInfo[] {
    return [
      {id: "16Uiu2", type: "node", goodReputation: true, ...COUNTERS, score: 3, punishments: 0, punishedUntil: 0},
    ];
  }

  reputationSummary(): ReputationSummary {
    return {
      count: 1,
      ...COUNTERS,
      peersTotalScore: 3,
      punishments: 0,
      goodReputationCount: 1,
      badReputationCount: 0,
    };
  }

  clear(peerOrAddress: string): void {
    this.cleared.push(peerOrAddress);
  }
}
