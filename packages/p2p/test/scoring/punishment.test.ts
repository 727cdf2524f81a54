/** Punishment durations: rskj's PunishmentCalculator arithmetic, its growth and its cap. */
import {describe, expect, it} from "vitest";
import {
  DEFAULT_ADDRESS_PUNISHMENT,
  DEFAULT_NODE_PUNISHMENT,
  PeerScoringManager,
  punishmentDuration,
} from "../../src/scoring/index.ts";

const MINUTE = 60_000;

describe("punishmentDuration", () => {
  it("starts at the duration and grows by the increment per earlier punishment (integer steps)", () => {
    const p = {durationMs: 720_000, incrementPercent: 10, maximumMs: 0};
    expect(punishmentDuration(p, 0, 0)).toBe(720_000);
    expect(punishmentDuration(p, 1, 0)).toBe(792_000);
    expect(punishmentDuration(p, 2, 0)).toBe(871_200);
    expect(punishmentDuration(p, 3, 0)).toBe(958_320);
    // floor at each step: 1001 → 1101 (1101.1) → 1211 (1211.1)
    expect(punishmentDuration({durationMs: 1001, incrementPercent: 10, maximumMs: 0}, 2, 0)).toBe(1211);
  });

  it("multiplies by minus a negative score, not by a positive one", () => {
    const p = {durationMs: 1000, incrementPercent: 10, maximumMs: 0};
    expect(punishmentDuration(p, 0, -1)).toBe(1000);
    expect(punishmentDuration(p, 0, -3)).toBe(3000);
    expect(punishmentDuration(p, 1, -3)).toBe(3300);
    expect(punishmentDuration(p, 0, 5)).toBe(1000);
  });

  it("stops at the maximum, before the score factor once growth reached it", () => {
    const p = {durationMs: 1000, incrementPercent: 50, maximumMs: 2000};
    expect(punishmentDuration(p, 1, 0)).toBe(1500);
    expect(punishmentDuration(p, 2, 0)).toBe(2000); // 2250 capped
    expect(punishmentDuration(p, 50, 0)).toBe(2000);
    expect(punishmentDuration(p, 0, -5)).toBe(2000); // 5000 capped
    expect(punishmentDuration(p, 1, -1)).toBe(1500);
  });

  it("without a maximum stays a safe integer", () => {
    const p = {durationMs: 720_000, incrementPercent: 10, maximumMs: 0};
    expect(punishmentDuration(p, 5000, -3)).toBe(Number.MAX_SAFE_INTEGER);
    expect(punishmentDuration({...p, incrementPercent: 0}, 5000, 0)).toBe(720_000);
  });

  it("defaults are rskj's reference.conf values", () => {
    expect(DEFAULT_NODE_PUNISHMENT).toEqual({durationMs: 12 * MINUTE, incrementPercent: 10, maximumMs: 0});
    expect(DEFAULT_ADDRESS_PUNISHMENT).toEqual({
      durationMs: 12 * MINUTE,
      incrementPercent: 10,
      maximumMs: 6000 * MINUTE,
    });
  });

  it("refuses invalid parameters and caps", () => {
    expect(() => new PeerScoringManager({nodes: {...DEFAULT_NODE_PUNISHMENT, durationMs: 0}})).toThrow(RangeError);
    expect(() => new PeerScoringManager({addresses: {...DEFAULT_ADDRESS_PUNISHMENT, incrementPercent: -1}})).toThrow(
      RangeError,
    );
    expect(() => new PeerScoringManager({addresses: {...DEFAULT_ADDRESS_PUNISHMENT, maximumMs: 1.5}})).toThrow(
      RangeError,
    );
    expect(() => new PeerScoringManager({maxNodes: 0})).toThrow(RangeError);
    expect(() => new PeerScoringManager({maxAddresses: Number.NaN})).toThrow(RangeError);
  });
});
