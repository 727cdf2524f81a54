// End-to-end: `xchain p2p-id` creates the node's identity key once and prints the same peer id that
// `xchain start` then uses on the network.
import {mkdtempSync, statSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {runCli as xchain} from "./support/runCli.ts";
import {startNode} from "./support/xchainProcess.ts";

describe("xchain p2p-id", () => {
  it("creates the key (mode 0600) once, prints the same id every time, and start uses it", async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), "xchain-p2p-id-")), "node");
    const first = await xchain("p2p-id", "--datadir", dataDir);
    const second = await xchain("p2p-id", "--datadir", dataDir);
    expect(first.code).toBe(0);
    const id = first.stdout.trim();
    expect(id).toMatch(/^16Uiu2[1-9A-HJ-NP-Za-km-z]+$/);
    expect(second.stdout.trim()).toBe(id);
    expect(statSync(join(dataDir, "p2p.key")).mode & 0o777).toBe(0o600);
    const node = await startNode([], dataDir);
    try {
      expect(node.p2pAddresses[0]).toMatch(new RegExp(`^/ip4/127\\.0\\.0\\.1/tcp/\\d+/p2p/${id}$`));
    } finally {
      await node.stop();
    }
  });

  it("refuses a corrupt key file instead of replacing it", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "xchain-p2p-id-"));
    writeFileSync(join(dataDir, "p2p.key"), "not a key");
    const result = await xchain("p2p-id", "--datadir", dataDir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("p2p.key");
  });
});
