// End-to-end: `xchain start` as a user runs it: start-up lines, restart on the same data
// directory, the data directory lock, clean exit on SIGTERM/SIGINT, refused configurations.
import {writeFileSync} from "node:fs";
import {join} from "node:path";
import {freePortFlags} from "@xchain/test-utils";
import {afterAll, describe, expect, it} from "vitest";
import {rpc} from "../support/jsonRpc.ts";
import {type RunningNode, runXchain, startNode, tempDataDir} from "../support/xchainProcess.ts";

const running: RunningNode[] = [];

async function start(args: string[] = [], dataDir?: string): Promise<RunningNode> {
  const node = await startNode(args, dataDir);
  running.push(node);
  return node;
}

afterAll(async () => {
  await Promise.all(running.filter((n) => n.process.exitCode === null).map((n) => n.stop("SIGKILL")));
});

describe("xchain start", () => {
  it("logs the genesis hash and the RPC endpoints, and serves regtest (chain id 0x21)", async () => {
    const node = await start();
    const genesis = await runXchain(["genesis", "--network", "regtest"]);
    const hash = genesis.stdout.match(/^hash\s+(0x[0-9a-f]{64})/m)?.[1];
    expect(node.logs.some((l) => l.genesisHash === hash)).toBe(true);
    expect(node.httpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(node.wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    expect(await rpc(node.httpUrl, "eth_chainId")).toBe("0x21");
    const exit = await node.stop("SIGTERM");
    expect(exit.code).toBe(0);
  });

  it("keeps the chain across a restart on the same data directory", async () => {
    const dataDir = tempDataDir();
    const manual = ["--miner.blockTimeMs", "0"];
    const first = await start(manual, dataDir);
    await rpc(first.httpUrl, "evm_mine");
    await rpc(first.httpUrl, "evm_mine");
    const head = await rpc<{number: string; hash: string}>(first.httpUrl, "eth_getBlockByNumber", ["latest", false]);
    expect(head.number).toBe("0x2");
    expect((await first.stop("SIGINT")).code).toBe(0);

    const second = await start(manual, dataDir);
    const again = await rpc<{number: string; hash: string}>(second.httpUrl, "eth_getBlockByNumber", ["latest", false]);
    expect(again).toMatchObject({number: head.number, hash: head.hash});
    expect((await second.stop()).code).toBe(0);
  });

  it("refuses a second node on the same data directory, and the first keeps serving", async () => {
    const first = await start();
    const second = await runXchain(["start", ...freePortFlags(first.dataDir)]);
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/in use by another xchain node/);
    expect(await rpc(first.httpUrl, "eth_chainId")).toBe("0x21");
    expect((await first.stop()).code).toBe(0);
  });

  it("runs a custom network from its genesis file", async () => {
    const genesisFile = join(tempDataDir(), "genesis.json");
    const alloc = {"0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826": {balance: "0x1000"}};
    writeFileSync(
      genesisFile,
      JSON.stringify({config: {chainId: 100}, difficulty: "0x01", gasLimit: "0x989680", alloc}),
    );
    const node = await start(["--network", "custom", "--genesis-file", genesisFile]);
    expect(await rpc(node.httpUrl, "eth_chainId")).toBe("0x64");
    expect(await rpc(node.httpUrl, "eth_getBalance", [Object.keys(alloc)[0], "latest"])).toBe("0x1000");
    expect(await rpc(node.httpUrl, "eth_accounts")).toEqual([]);
    expect((await node.stop()).code).toBe(0);
  });

  it("stops start-up on an unknown key or a bad value, naming it and what is valid", async () => {
    const config = join(tempDataDir(), "node.config.toml");
    writeFileSync(config, "[rpc.http]\nprot = 4444\n");
    const unknownKey = await runXchain(["start", "--config", config, "--datadir", tempDataDir()]);
    expect(unknownKey.code).toBe(2);
    expect(unknownKey.stderr).toMatch(/unknown key "rpc\.http\.prot".*enabled, host, port/);

    const badValue = await runXchain(["start", "--rpc.http.port", "http", "--datadir", tempDataDir()]);
    expect(badValue.code).toBe(2);
    expect(badValue.stderr).toMatch(/rpc\.http\.port.*"http".*integer in 0\.\.65535/);

    const badChoice = await runXchain(["start", "--log.level", "loud", "--datadir", tempDataDir()]);
    expect(badChoice.stderr).toMatch(/log\.level.*one of trace, debug, info, warn, error, fatal, silent/);

    const unknownFlag = await runXchain(["start", "--rpc.http.prot", "1", "--datadir", tempDataDir()]);
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.stderr).toMatch(/unknown option '--rpc\.http\.prot'[\s\S]*--rpc\.http\.port/);
  });
});
