/** The bootnode keeper's dials: in the background, a bounded number at once, every bootnode in the end. */
import {generateKeyPair} from "@libp2p/crypto/keys";
import {peerIdFromPrivateKey} from "@libp2p/peer-id";
import type {Multiaddr} from "@multiformats/multiaddr";
import {noopLogger} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {
  BOOTNODE_DIAL_CONCURRENCY,
  type BootnodeHost,
  BootnodeKeeper,
  DEFAULT_REDIAL_TIMING,
} from "../src/bootnodeKeeper.ts";
import {bootnodeProblem} from "../src/bootnodes.ts";

/** A host whose dials wait until the test settles them, counting how many are in flight. */
function recordingHost() {
  const pending: {address: string; settle: (ok: boolean) => void}[] = [];
  const dialled: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const host = {
    status: "started",
    peerId: {toString: () => "self"},
    getConnections: () => [],
    dial: (address: Multiaddr) =>
      new Promise((resolve, reject) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        dialled.push(address.toString());
        pending.push({
          address: address.toString(),
          settle: (ok) => {
            inFlight--;
            if (ok) resolve(undefined);
            else reject(new Error("refused"));
          },
        });
      }),
  } as unknown as BootnodeHost;
  return {host, pending, dialled, inFlight: () => inFlight, maxInFlight: () => maxInFlight};
}

async function bootnodeList(count: number): Promise<string[]> {
  const peers = await Promise.all(
    Array.from({length: count}, async () => peerIdFromPrivateKey(await generateKeyPair("Ed25519")).toString()),
  );
  return peers.map((peer, i) => `/ip4/10.0.${i >> 8}.${i & 255}/tcp/30002/p2p/${peer}`);
}

/** Lets the dials' settle callbacks (promise reactions) run. */
const turn = () => new Promise((resolve) => setImmediate(resolve));
/** The longest timer delay: no redial round comes during a test, however slow the machine. */
const NO_REDIAL = {...DEFAULT_REDIAL_TIMING, tickMs: 2 ** 31 - 1};

describe("BootnodeKeeper", () => {
  it("returns from start with the dials in flight, at most BOOTNODE_DIAL_CONCURRENCY at once, and dials every bootnode", async () => {
    const list = await bootnodeList(40);
    const fake = recordingHost();
    const keeper = new BootnodeKeeper(fake.host, list, noopLogger, NO_REDIAL);
    keeper.start();
    // start() has returned while no dial has finished.
    expect(fake.inFlight()).toBe(BOOTNODE_DIAL_CONCURRENCY);
    while (fake.pending.length > 0) {
      // Half fail, half connect: a failure frees its slot as a success does.
      (fake.pending.shift() as {settle: (ok: boolean) => void}).settle(fake.dialled.length % 2 === 0);
      await turn();
      expect(fake.inFlight()).toBeLessThanOrEqual(BOOTNODE_DIAL_CONCURRENCY);
    }
    expect(fake.maxInFlight()).toBe(BOOTNODE_DIAL_CONCURRENCY);
    expect([...fake.dialled].sort()).toEqual([...list].sort());
    keeper.stop();
  });

  it("starts no queued dial after stop", async () => {
    const fake = recordingHost();
    const keeper = new BootnodeKeeper(fake.host, await bootnodeList(20), noopLogger, NO_REDIAL);
    keeper.start();
    keeper.stop();
    for (const dial of fake.pending.splice(0)) dial.settle(false);
    await turn();
    expect(fake.dialled).toHaveLength(BOOTNODE_DIAL_CONCURRENCY);
  });
});

describe("bootnodeProblem", () => {
  it("refuses a 100 KB string by its length, before parsing it", () => {
    expect(bootnodeProblem(`/ip4/1.2.3.4/tcp/1/p2p/${"Q".repeat(100_000)}`)).toBe(
      "it has 100023 characters (at most 512)",
    );
  });
});
