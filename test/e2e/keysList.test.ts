// End-to-end: `xchain keys list` names the keys file it read, on stderr, so that an empty answer
// is never silent (the default file depends on --network and the home directory).
import {execFile} from "node:child_process";
import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {runXchain, XCHAIN_BIN} from "./support/xchainProcess.ts";

/** The CLI with `HOME` at `home`, so that the default data directory is under it. */
function xchainAtHome(home: string, args: string[]): Promise<{stdout: string; stderr: string}> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      [XCHAIN_BIN, ...args],
      {env: {...process.env, HOME: home}, timeout: 20_000},
      (e, stdout, stderr) => (e ? reject(e) : resolve({stdout, stderr})),
    ),
  );
}

describe("xchain keys list", () => {
  it("without --datadir names the default file it read and says it holds no keys", async () => {
    const home = mkdtempSync(join(tmpdir(), "xchain-home-"));
    const file = join(home, ".xchain", "testnet", "gateway-keys.json");
    const none = await xchainAtHome(home, ["keys", "list", "--network", "testnet"]);
    expect(none.stdout).toBe("");
    expect(none.stderr).toMatch(new RegExp(`^no keys: ${file} does not exist \\(xchain keys add creates it`));
  });

  it("names the file with its key count, and an existing empty file as such", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "xchain-keys-"));
    const file = join(dataDir, "gateway-keys.json");
    expect((await runXchain(["keys", "add", "--datadir", dataDir, "--label", "one"])).code).toBe(0);
    const one = await runXchain(["keys", "list", "--datadir", dataDir]);
    expect(one.code).toBe(0);
    expect(one.stderr).toBe(`1 key in ${file}\n`);
    expect(one.stdout.trim().split("\n")).toHaveLength(1);
    const id = one.stdout.split(" ")[0] as string;
    expect((await runXchain(["keys", "revoke", id, "--datadir", dataDir])).code).toBe(0);
    const empty = await runXchain(["keys", "list", "--datadir", dataDir]);
    expect(empty.stdout).toBe("");
    expect(empty.stderr).toBe(`no keys in ${file}\n`);
  });
});
