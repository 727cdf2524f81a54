import type {PeerScoringAdmin} from "../../src/index.ts";

/** A scoring that accepts dotted IPv4 addresses and CIDR blocks only, and remembers the calls. */
export class RecordingScoring implements PeerScoringAdmin {
  readonly banned: string[] = [];
  readonly cleared: string[] = [];
  private static readonly VALID = /^\d+\.\d+\.\d+\.\d+(\/\d+)?$/;

  banAddress(address: string): boolean {
    if (!RecordingScoring.VALID.test(address)) return false;
    this.banned.push(address);
    return true;
  }

  unbanAddress(address: string): boolean {
    if (!RecordingScoring.VALID.test(address)) return false;
    this.banned.splice(this.banned.indexOf(address), 1);
    return true;
  }

  bannedAddresses(): string[] {
    return [...this.banned];
  }

  peerList(): object[] {
    return [{id: "16Uiu2", type: "node", goodReputation: true, score: 3}];
  }

  reputationSummary(): object {
    return {count: 1, goodReputationCount: 1, badReputationCount: 0};
  }

  clear(peerOrAddress: string): void {
    this.cleared.push(peerOrAddress);
  }
}
