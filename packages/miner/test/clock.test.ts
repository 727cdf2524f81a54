/** The miner clock: the shift, a next block's timestamp, the interval, setTime, save and restore. */
import {describe, expect, it} from "vitest";
import {MinerClock} from "../src/clock.ts";

const NOW_MS = 2_000_000_000_000;
const NOW = NOW_MS / 1000;

function clockAt(ms = NOW_MS): {clock: MinerClock; advance: (seconds: number) => void} {
  let now = ms;
  return {clock: new MinerClock(() => now), advance: (seconds) => (now += seconds * 1000)};
}

describe("MinerClock", () => {
  it("times a block at now plus the shift, after its parent", () => {
    const {clock} = clockAt();
    expect(clock.timestampAfter(NOW - 100)).toBe(NOW);
    expect(clock.timestampAfter(NOW + 5)).toBe(NOW + 6);
    clock.increase(60, NOW - 100);
    expect(clock.timestampAfter(NOW - 100)).toBe(NOW + 60);
  });

  it("gives the next block the timestamp set until a head reaches it, then goes on from it", () => {
    const {clock, advance} = clockAt();
    clock.setNextTimestamp(NOW + 1_000);
    expect(clock.timestampAfter(NOW)).toBe(NOW + 1_000);
    clock.headMoved(NOW + 10);
    expect(clock.pendingNextTimestamp).toBe(NOW + 1_000);
    clock.headMoved(NOW + 1_000);
    expect(clock.pendingNextTimestamp).toBeUndefined();
    advance(5);
    expect(clock.timestampAfter(NOW + 1_000)).toBe(NOW + 1_005);
  });

  it("spaces blocks by the interval, the wall clock ignored, until it is removed", () => {
    const {clock} = clockAt();
    clock.setInterval(7);
    expect(clock.timestampAfter(NOW - 500)).toBe(NOW - 493);
    expect(clock.removeInterval()).toBe(true);
    expect(clock.removeInterval()).toBe(false);
    expect(clock.timestampAfter(NOW - 500)).toBe(NOW);
  });

  it("jumps to a time set, backwards too, and forgets a next block's timestamp", () => {
    const {clock} = clockAt();
    clock.setNextTimestamp(NOW + 50);
    clock.setTime(NOW + 3_600);
    expect(clock.nowSeconds()).toBe(NOW + 3_600);
    expect(clock.pendingNextTimestamp).toBeUndefined();
    clock.setTime(NOW - 3_600);
    expect(clock.timestampAfter(NOW)).toBe(NOW + 1);
    expect(clock.shiftSeconds).toBe(0);
  });

  it("restores every field it saved, and bumps its revision on each change", () => {
    const {clock} = clockAt();
    clock.increase(10, 0);
    clock.setInterval(3);
    clock.setNextTimestamp(NOW + 99);
    const saved = clock.save();
    const revision = clock.revision;
    clock.reset();
    expect(clock.save()).toEqual({
      offsetSeconds: 0,
      catchUpSeconds: 0,
      nextTimestamp: undefined,
      intervalSeconds: undefined,
    });
    clock.restore(saved);
    expect(clock.save()).toEqual(saved);
    expect(clock.shiftSeconds).toBe(10);
    expect(clock.timestampAfter(NOW)).toBe(NOW + 99);
    expect(clock.revision).toBeGreaterThan(revision);
  });
});
