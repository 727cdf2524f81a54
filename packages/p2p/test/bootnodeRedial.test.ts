/**
 * The bootnode keeper's redial schedule and warnings, on a fake clock: a bootnode that keeps failing is
 * redialled with a backoff bounded by `maxDelayMs`, warned about once per cause, and warned about again
 * once it has connected in between; failures are classified from libp2p's errors.
 */
import {generateKeyPair} from "@libp2p/crypto/keys";
import {UnexpectedPeerError} from "@libp2p/interface";
import {peerIdFromPrivateKey} from "@libp2p/peer-id";
import {afterEach, beforeEach, describe, expect, it, vi} from "vitest";
import {type BootnodeHost, BootnodeKeeper, DEFAULT_REDIAL_TIMING, redialDelay} from "../src/bootnodeKeeper.ts";
import {dialFailureOf} from "../src/dialFailure.ts";
import {type LogLine, recordingLogger} from "./support/logger.ts";

/** A host whose every dial fails with `failure()`'s error, recording when it was dialled (fake time). */
function failingHost(failure: () => Error) {
  const dials: number[] = [];
  const host = {
    status: "started",
    peerId: {toString: () => "self"},
    getConnections: () => [],
    dial: () => {
      dials.push(Date.now());
      return Promise.reject(failure());
    },
  } as unknown as BootnodeHost;
  return {host, dials};
}

const refused = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), {code: "ECONNREFUSED"});

async function peerId(): Promise<string> {
  return peerIdFromPrivateKey(await generateKeyPair("secp256k1")).toString();
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("BootnodeKeeper redials", () => {
  it("backs off from minDelayMs to maxDelayMs and no further, and warns once for a cause that does not change", async () => {
    const lines: LogLine[] = [];
    const fake = failingHost(refused);
    const bootnode = `/ip4/127.0.0.1/tcp/1/p2p/${await peerId()}`;
    const keeper = new BootnodeKeeper(fake.host, [bootnode], recordingLogger(lines));
    keeper.start();
    await vi.advanceTimersByTimeAsync(60_000);
    keeper.stop();
    const gaps = fake.dials.slice(1).map((at, i) => at - (fake.dials[i] as number));
    const {minDelayMs, maxDelayMs, tickMs} = DEFAULT_REDIAL_TIMING;
    // The first redial comes after about minDelayMs (less its jitter), the waits grow, and none
    // exceeds maxDelayMs plus one tick of the scheduler.
    expect(gaps[0]).toBeLessThanOrEqual(minDelayMs + tickMs);
    for (const gap of gaps) expect(gap).toBeLessThanOrEqual(maxDelayMs + tickMs);
    expect(Math.max(...gaps.slice(-5))).toBeGreaterThan(maxDelayMs * 0.8 - tickMs);
    // 60 s of a refused bootnode: every few seconds, not every 15 s, not a busy loop.
    expect(fake.dials.length).toBeGreaterThan(60_000 / (maxDelayMs + tickMs));
    expect(fake.dials.length).toBeLessThan(60_000 / (maxDelayMs * 0.8 - tickMs) + 6);
    const warnings = lines.filter((l) => l.level === "warn");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain(`bootnode ${bootnode} is not reachable: connection refused`);
    expect(warnings[0]?.context).toMatchObject({bootnode, cause: "refused"});
  });

  it("warns again when the cause changes, and after the bootnode connected in between", async () => {
    const lines: LogLine[] = [];
    const expected = await peerId();
    const found = await peerId();
    let error: () => Error = refused;
    const fake = failingHost(() => error());
    const keeper = new BootnodeKeeper(fake.host, [`/ip4/127.0.0.1/tcp/1/p2p/${expected}`], recordingLogger(lines));
    const warnings = () => lines.filter((l) => l.level === "warn");
    keeper.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(warnings().map((w) => w.context.cause)).toEqual(["refused"]);
    // What libp2p's upgrader throws: noise's UnexpectedPeerError's message in an EncryptionFailedError.
    const noiseError = new UnexpectedPeerError(
      `Payload identity key ${found} does not match expected remote identity key ${expected}`,
    );
    error = () => Object.assign(new Error(noiseError.message), {name: "EncryptionFailedError"});
    await vi.advanceTimersByTimeAsync(10_000);
    expect(warnings().map((w) => w.context.cause)).toEqual(["refused", "peer id mismatch"]);
    expect(warnings()[1]?.context).toMatchObject({foundPeerId: found, expectedPeerId: expected});
    expect(warnings()[1]?.message).toContain(`has another peer id: the node at that address has peer id ${found}`);
    keeper.connected(expected);
    keeper.lost(expected);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(warnings().map((w) => w.context.cause)).toEqual(["refused", "peer id mismatch", "peer id mismatch"]);
    keeper.handshakeFailed(expected, "its genesis 0x12 differs from ours", true);
    keeper.handshakeFailed(expected, "its genesis 0x12 differs from ours", true);
    expect(warnings().map((w) => w.context.cause)).toEqual([
      "refused",
      "peer id mismatch",
      "peer id mismatch",
      "wrong network",
    ]);
    // Two causes taking turns (a refused handshake seen from either side) warn once each, not at
    // every change: this flooded the log with a bootnode of another network.
    // The words of one cause vary between failures: still one warning.
    for (let i = 0; i < 5; i++) {
      keeper.handshakeFailed(expected, i % 2 ? "stream reset" : "stream closed", false);
      keeper.handshakeFailed(expected, "its genesis 0x12 differs from ours", true);
    }
    expect(warnings().map((w) => w.context.cause)).toEqual([
      "refused",
      "peer id mismatch",
      "peer id mismatch",
      "wrong network",
      "handshake failed",
    ]);
    keeper.stop();
  });

  it("dials a peer added at run time at once and keeps redialling it; remove stops that", async () => {
    const fake = failingHost(refused);
    const keeper = new BootnodeKeeper(fake.host, [], recordingLogger([]));
    keeper.start();
    const peer = await peerId();
    expect(keeper.add(`/ip4/127.0.0.1/tcp/1/p2p/${peer}`, 1)).toBe(true);
    expect(fake.dials).toHaveLength(1);
    expect(keeper.add(`/ip4/127.0.0.1/tcp/2/p2p/${await peerId()}`, 1)).toBe(false);
    await vi.advanceTimersByTimeAsync(10_000);
    const dialled = fake.dials.length;
    expect(dialled).toBeGreaterThan(2);
    expect(keeper.remove(peer)).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fake.dials).toHaveLength(dialled);
    keeper.stop();
  });
});

describe("redialDelay", () => {
  it("doubles from minDelayMs and stays within maxDelayMs", () => {
    const timing = DEFAULT_REDIAL_TIMING;
    for (let failures = 0; failures < 100; failures++) {
      const delay = redialDelay(failures, timing);
      expect(delay).toBeLessThanOrEqual(timing.maxDelayMs);
      expect(delay).toBeGreaterThanOrEqual(
        Math.min(timing.minDelayMs * 2 ** Math.max(failures - 1, 0), timing.maxDelayMs) * 0.8,
      );
    }
  });
});

describe("dialFailureOf", () => {
  it("names a refused connection, also inside libp2p's AggregateError", () => {
    // Node's error for a closed port, as libp2p's TCP transport passes it on.
    const error = Object.assign(new Error("connection error 127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1"), {
      code: "ECONNREFUSED",
    });
    expect(dialFailureOf(error)).toMatchObject({kind: "refused"});
    expect(dialFailureOf(new AggregateError([error], "All multiaddr dials failed"))).toMatchObject({kind: "refused"});
  });

  it("names a timeout, an unreachable host and anything else", () => {
    expect(dialFailureOf(Object.assign(new Error("x"), {name: "TimeoutError"})).kind).toBe("timed out");
    expect(dialFailureOf(Object.assign(new Error("x"), {code: "EHOSTUNREACH"})).detail).toBe(
      "unreachable (EHOSTUNREACH)",
    );
    expect(dialFailureOf(new RangeError("odd"))).toEqual({kind: "dial failed", detail: "RangeError: odd"});
  });
});
