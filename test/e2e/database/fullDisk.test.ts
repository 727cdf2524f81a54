// A node whose disk fills up (docs/operations.md §6), on a small tmpfs of its own: writes are refused
// below the free-space floor, named in one log line, /ready fails and sends are refused; once space
// is freed the pending transaction is mined, and nothing stored is lost or damaged. Mounting needs
// root (CI runs as root); elsewhere the suite is skipped and says why.
import {execFileSync} from "node:child_process";
import {mkdtempSync, rmSync, statfsSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {freePortFlags} from "@xchain/test-utils";
import {afterAll, describe, expect, it} from "vitest";
import {JsonRpcFault, rpc, waitForReceipt} from "../support/jsonRpc.ts";
import {runXchain, startNode} from "../support/xchainProcess.ts";

const MIB = 2 ** 20;
const FLOOR_MB = 16;
const NODE_FLAGS = ["--p2p.enabled", "false", "--miner.blockTimeMs", "0", "--db.minFreeMb", String(FLOOR_MB)];

/** A 64 MiB tmpfs, or why there is none. */
function mountSmallDisk(): {dir: string} | {skip: string} {
  const dir = mkdtempSync(join(tmpdir(), "xchain-full-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64m", "tmpfs", dir], {stdio: "ignore"});
    return {dir};
  } catch {
    rmSync(dir, {recursive: true, force: true});
    return {skip: "mounting a tmpfs needs root"};
  }
}

const disk = mountSmallDisk();
const mountPoint = "dir" in disk ? disk.dir : "";
const filler = join(mountPoint, "filler");

afterAll(() => {
  if (!mountPoint) return;
  execFileSync("umount", ["--lazy", mountPoint]);
  rmSync(mountPoint, {recursive: true, force: true});
});

/** Fills the disk until `leaveBytes` are free. */
function fillLeaving(leaveBytes: number): void {
  const {bavail, bsize} = statfsSync(mountPoint);
  execFileSync("fallocate", ["-l", String(Math.max(0, bavail * bsize - leaveBytes)), filler]);
}

async function readiness(url: string): Promise<{status: number; body: string}> {
  const response = await fetch(new URL("/ready", url));
  return {status: response.status, body: await response.text()};
}

async function send(url: string, from: string, value: number): Promise<string> {
  return rpc<string>(url, "eth_sendTransaction", [
    {from, to: "0x00000000000000000000000000000000000000aa", value: `0x${value.toString(16)}`, gas: "0x5208"},
  ]);
}

describe.skipIf("skip" in disk)("a full disk", () => {
  it("refuses writes and sends while it lasts, says so once, and loses nothing when space is back", async () => {
    const dataDir = join(mountPoint, "node");
    const node = await startNode(NODE_FLAGS, dataDir);
    try {
      const [from] = await rpc<string[]>(node.httpUrl, "eth_accounts");
      await waitForReceipt(node.httpUrl, await send(node.httpUrl, from as string, 1));
      const before = Number(await rpc<string>(node.httpUrl, "eth_blockNumber"));

      fillLeaving((FLOOR_MB / 2) * MIB);
      // Accepted (nothing has failed yet), then its block is refused below the floor. With instant
      // mining the send is answered once the transaction is mined: only when space is back.
      const stuck = send(node.httpUrl, from as string, 2);

      let ready = await readiness(node.httpUrl);
      while (ready.status !== 503) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        ready = await readiness(node.httpUrl);
      }
      expect(ready.body).toMatch(/no space left on the device of the database at .*below the floor of 16\.0 MiB/);
      const refused = await send(node.httpUrl, from as string, 3).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(JsonRpcFault);
      expect((refused as JsonRpcFault).code).toBe(-32010);
      expect((refused as JsonRpcFault).message).toMatch(/cannot store blocks now: no space left/);
      // The miner retries every second meanwhile; each failure is not a log line.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(Number(await rpc<string>(node.httpUrl, "eth_blockNumber"))).toBe(before);
      const lines = node.logs.map((l) => String(l.msg));
      expect(lines.filter((m) => m.startsWith("mining failed"))).toHaveLength(1);
      expect(lines.filter((m) => m.startsWith("no space left on the device of"))).toHaveLength(1);

      rmSync(filler);
      const receipt = await waitForReceipt(node.httpUrl, await stuck);
      expect(Number(receipt.blockNumber)).toBe(before + 1);
      expect((await readiness(node.httpUrl)).status).toBe(200);
      expect(node.logs.some((l) => String(l.msg).startsWith("space is available again"))).toBe(true);
    } finally {
      expect((await node.stop()).code).toBe(0);
    }

    // A start below the floor is refused with the space named; with space back the chain is whole.
    fillLeaving((FLOOR_MB / 2) * MIB);
    const start = await runXchain(["start", ...freePortFlags(dataDir), ...NODE_FLAGS]);
    expect(start.code).toBe(2);
    expect(start.stderr).toMatch(/no space left on the device of .*below the floor of 16\.0 MiB \(db\.minFreeMb\)/);
    rmSync(filler);
    const verified = await runXchain(["db", "verify", "--datadir", dataDir]);
    expect(verified.stdout).toMatch(/the database is whole/);
    const again = await startNode(NODE_FLAGS, dataDir);
    try {
      expect(Number(await rpc<string>(again.httpUrl, "eth_blockNumber"))).toBeGreaterThanOrEqual(2);
    } finally {
      await again.stop();
    }
  }, 120_000);
});
