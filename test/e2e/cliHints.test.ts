// End-to-end: the command line as someone coming from anvil, Hardhat or geth types it. Their flags
// are refused as unknown options (exit code 2) with a hint naming xchain's equivalent, and
// `--version` and `--help` answer without loading the node (docs/config.md).
import {describe, expect, it} from "vitest";
import {runXchain} from "./support/xchainProcess.ts";

describe("hints for other tools' flags", () => {
  const cases: [string[], string][] = [
    [["start", "--port", "8545"], "hint: anvil's and Hardhat's --port is --rpc.http.port"],
    [["start", "--host=0.0.0.0"], "hint: anvil's --host is --rpc.http.host"],
    [["start", "--chain-id", "1337"], "hint: the chain id is the network's (regtest 33)"],
    [["start", "--block-time", "2"], "hint: anvil's --block-time <seconds> is --miner.blockTimeMs <milliseconds>"],
    [["start", "--fork-url", "http://127.0.0.1:8545"], "hint: anvil's --fork-url <url> is --fork.url <url>"],
    [["start", "--http.port", "8545"], "hint: geth's --http.port is --rpc.http.port"],
    [["--port", "8545"], "(a flag of xchain start)"],
  ];
  for (const [args, hint] of cases) {
    it(`xchain ${args.join(" ")}`, async () => {
      const r = await runXchain(args);
      expect(r.code).toBe(2);
      const lines = r.stderr.trimEnd().split("\n");
      expect(lines[0]).toBe(`error: unknown option '${args.find((a) => a.startsWith("-"))}'`);
      expect(lines[1]).toContain(hint);
      expect(lines.at(-1)).toMatch(/^Run 'xchain (start )?--help' for usage\.$/);
    });
  }

  it("adds no hint to a flag it does not know", async () => {
    const r = await runXchain(["start", "--frobnicate"]);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/hint:/);
  });
});

describe("--version and --help", () => {
  it("print the version and every command, and help <command> loads that command", async () => {
    const version = await runXchain(["--version"]);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const help = await runXchain(["--help"]);
    expect(help.code).toBe(0);
    for (const name of ["start [options]", "verify-headers [options] [file]", "keys <add|list|revoke|set>", "db"]) {
      expect(help.stdout).toContain(`  ${name}`);
    }
    const genesis = await runXchain(["help", "genesis"]);
    expect(genesis.code).toBe(0);
    expect(genesis.stdout).toMatch(/^Usage: xchain genesis \[options\]/);
    expect(genesis.stdout).toContain("--genesis-file <file>");
  });
});
