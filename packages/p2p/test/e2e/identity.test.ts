/** The node key kept across restarts of a libp2p host (the key file itself: ../identity.test.ts). */
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {afterEach, describe, expect, it} from "vitest";
import {loadOrCreateIdentity} from "../../src/identity.ts";
import {P2PNetwork} from "../../src/network.ts";
import {decodeOptions, NETWORK_ID, openChain} from "../support/chain.ts";
import {RecordingScoring, testOptions} from "../support/hosts.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true});
});

describe("node identity", () => {
  it("gives the host the same peer id across restarts", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "xchain-p2p-"));
    dirs.push(dataDir);
    const start = async () =>
      P2PNetwork.start(testOptions(), {
        privateKey: await loadOrCreateIdentity(dataDir),
        networkId: NETWORK_ID,
        decodeOptions,
        chain: await openChain(),
        scoring: new RecordingScoring(),
      });
    const first = await start();
    const id = first.peerId;
    expect(first.listenAddresses()[0]).toContain(`/p2p/${id}`);
    await first.stop();
    expect(first.listening()).toBe(false);
    const second = await start();
    try {
      expect(second.peerId).toBe(id);
    } finally {
      await second.stop();
    }
  });
});
