/**
 * How long a punishment lasts (rskj `PunishmentCalculator` and `PunishmentParameters`): an initial
 * duration, grown by a percentage for each earlier punishment of the same entry, multiplied by minus the
 * score when the score is negative, and capped by a maximum (0 = no maximum).
 */

/** Punishment parameters of node ids or of addresses (rskj `scoring.nodes.*` / `scoring.addresses.*`). */
export interface PunishmentParameters {
  /** First punishment, in milliseconds (rskj `duration`, given there in minutes). */
  durationMs: number;
  /** Growth of each further punishment, in percent of the previous one (rskj `increment`). */
  incrementPercent: number;
  /** Longest punishment in milliseconds; 0 = no maximum (rskj `maximum`, in minutes). */
  maximumMs: number;
}

const MINUTE = 60_000;

/** Node ids: rskj's reference.conf values (`scoring.nodes`: 12 minutes, 10 %, no maximum). */
export const DEFAULT_NODE_PUNISHMENT: Readonly<PunishmentParameters> = Object.freeze({
  durationMs: 12 * MINUTE,
  incrementPercent: 10,
  maximumMs: 0,
});

/** Addresses: rskj's reference.conf values (`scoring.addresses`: 12 minutes, 10 %, 6000 minutes). */
export const DEFAULT_ADDRESS_PUNISHMENT: Readonly<PunishmentParameters> = Object.freeze({
  durationMs: 12 * MINUTE,
  incrementPercent: 10,
  maximumMs: 6000 * MINUTE,
});

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Throws a RangeError unless the parameters are non-negative integers with a positive duration. */
export function checkPunishmentParameters(p: PunishmentParameters, what: string): void {
  for (const [key, value] of Object.entries(p)) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`${what}.${key} must be a non-negative integer, got ${value}`);
    }
  }
  // rskj never ends a punishment of duration 0 (its expiry test wants a positive duration).
  if (p.durationMs === 0) throw new RangeError(`${what}.durationMs must be positive`);
}

/**
 * Duration of the next punishment of an entry punished `previousPunishments` times before, whose score
 * is `score` (rskj `PunishmentCalculator.calculate`, with the same integer arithmetic: each step is
 * `floor(d * (100 + increment) / 100)`, and reaching the maximum while growing ends the growth at the
 * maximum before any score factor). Without a maximum the result stops at 2^53 - 1 ms instead of
 * overflowing (rskj's `multiplyExact` throws there).
 */
export function punishmentDuration(p: PunishmentParameters, previousPunishments: number, score: number): number {
  const maximum = BigInt(p.maximumMs);
  const rate = 100n + BigInt(p.incrementPercent);
  let result = BigInt(p.durationMs);
  for (let i = 0; i < previousPunishments; i++) {
    result = (result * rate) / 100n;
    if (maximum > 0n && result > maximum) return p.maximumMs;
    if (result > MAX_SAFE) return Number.MAX_SAFE_INTEGER;
  }
  if (score < 0) result *= BigInt(-score);
  if (maximum > 0n && result > maximum) result = maximum;
  return result > MAX_SAFE ? Number.MAX_SAFE_INTEGER : Number(result);
}
