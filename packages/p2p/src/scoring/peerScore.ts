/**
 * The scoring of one node id or one address (rskj `PeerScoring` and `ScoringCalculator`): a counter per
 * event, an integer score, the good-reputation flag, and the current punishment.
 */
import {PeerEvent, type PeerScoringInfo} from "../types.ts";

/** The `sco_peerList` field that counts each event, in the order of docs/protocol/peer-scoring.md's fields. */
export const COUNTER_OF_EVENT = {
  [PeerEvent.SUCCESSFUL_HANDSHAKE]: "successfulHandshakes",
  [PeerEvent.FAILED_HANDSHAKE]: "failedHandshakes",
  [PeerEvent.INVALID_NETWORK]: "invalidNetworks",
  [PeerEvent.REPEATED_MESSAGE]: "repeatedMessages",
  [PeerEvent.VALID_BLOCK]: "validBlocks",
  [PeerEvent.VALID_TRANSACTION]: "validTransactions",
  [PeerEvent.INVALID_BLOCK]: "invalidBlocks",
  [PeerEvent.INVALID_TRANSACTION]: "invalidTransactions",
  [PeerEvent.INVALID_MESSAGE]: "invalidMessages",
  [PeerEvent.TIMEOUT_MESSAGE]: "timeoutMessages",
  [PeerEvent.UNEXPECTED_MESSAGE]: "unexpectedMessages",
  [PeerEvent.INVALID_HEADER]: "invalidHeader",
} as const satisfies Record<PeerEvent, keyof PeerScoringInfo>;

export type CounterField = (typeof COUNTER_OF_EVENT)[PeerEvent];
export type Counters = Record<CounterField, number>;

const COUNTER_FIELDS = Object.values(COUNTER_OF_EVENT);

/** All counters at zero. */
export function zeroCounters(): Counters {
  const counters = {} as Counters;
  for (const field of COUNTER_FIELDS) counters[field] = 0;
  return counters;
}

/**
 * rskj `PeerScoring.updateScoring`: the invalid events drop a positive score to 0 and then take 1; the
 * valid block and transaction add 1 unless the score is already negative; handshakes, repeated,
 * unexpected and timed-out messages leave it alone.
 */
function nextScore(score: number, event: PeerEvent): number {
  switch (event) {
    case PeerEvent.INVALID_NETWORK:
    case PeerEvent.INVALID_BLOCK:
    case PeerEvent.INVALID_TRANSACTION:
    case PeerEvent.INVALID_MESSAGE:
    case PeerEvent.INVALID_HEADER:
      return Math.min(score, 0) - 1;
    case PeerEvent.VALID_BLOCK:
    case PeerEvent.VALID_TRANSACTION:
      return score >= 0 ? score + 1 : score;
    case PeerEvent.SUCCESSFUL_HANDSHAKE:
    case PeerEvent.FAILED_HANDSHAKE:
    case PeerEvent.REPEATED_MESSAGE:
    case PeerEvent.TIMEOUT_MESSAGE:
    case PeerEvent.UNEXPECTED_MESSAGE:
      return score;
  }
}

/** One node id's or one address's scoring. */
export class PeerScore {
  readonly counters: Counters = zeroCounters();
  score = 0;
  goodReputation = true;
  /** Punishments so far (never reset, not even when one ends: it drives the growth of the next). */
  punishments = 0;
  /** Epoch ms when the current punishment ends; 0 when not punished. */
  punishedUntil = 0;

  /** Counts an event and updates the score (rskj `updateScoring`). */
  record(event: PeerEvent): void {
    this.counters[COUNTER_OF_EVENT[event]]++;
    this.score = nextScore(this.score, event);
  }

  /**
   * rskj `ScoringCalculator.hasGoodScore`: no invalid block, no invalid message and no invalid header
   * since the last punishment ended. Invalid transactions and networks only lower the score (which
   * lengthens the next punishment); timeouts, repeated and unexpected messages are only counted.
   */
  hasGoodScore(): boolean {
    return (
      this.counters.invalidBlocks === 0 && this.counters.invalidMessages === 0 && this.counters.invalidHeader === 0
    );
  }

  /** Loses the good reputation until `until` (rskj `startPunishment`). */
  startPunishment(until: number): void {
    this.goodReputation = false;
    this.punishments++;
    this.punishedUntil = until;
  }

  /**
   * Ends a punishment that has expired (rskj `refreshReputationAndPunishment`): the good reputation
   * comes back, and the counters and the score start again from zero; the punishment count stays.
   * Returns the reputation after the refresh.
   */
  refresh(now: number): boolean {
    if (!this.goodReputation && this.punishedUntil <= now) {
      for (const field of COUNTER_FIELDS) this.counters[field] = 0;
      this.score = 0;
      this.goodReputation = true;
      this.punishedUntil = 0;
    }
    return this.goodReputation;
  }

  /** The `sco_peerList` entry (call `refresh` first, as rskj's `buildByScoring` does). */
  info(id: string, type: "node" | "address"): PeerScoringInfo {
    return {
      id,
      type,
      goodReputation: this.goodReputation,
      ...this.counters,
      score: this.score,
      punishments: this.punishments,
      punishedUntil: this.punishedUntil,
    };
  }
}
