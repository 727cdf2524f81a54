// End-to-end: `xchain genesis` prints the deterministic genesis hash of each network and of a custom genesis file.
import {mkdtempSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {Chain, defaultChainOptions} from "@xchain/chain";
import {getChainspec, regtestGenesis} from "@xchain/chainspec";
import {MemoryStore} from "@xchain/db";
import {bytesToPrefixedHex} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {runCli as xchain} from "./support/runCli.ts";

function line(stdout: string, key: string): string | undefined {
  return stdout
    .split("\n")
    .find((l) => l.startsWith(key))
    ?.split(/\s+/)[1];
}

describe("xchain genesis", () => {
  it("prints the regtest genesis hash the chain writes, the same on every run", async () => {
    const chain = await Chain.open(defaultChainOptions, {
      store: new MemoryStore(),
      chainspec: getChainspec("regtest"),
      genesis: regtestGenesis,
    });
    const first = await xchain("genesis", "--network", "regtest");
    const second = await xchain("genesis", "--network", "regtest");
    expect(first.code).toBe(0);
    expect(line(first.stdout, "hash")).toBe(bytesToPrefixedHex(chain.genesisHash));
    expect(second.stdout).toBe(first.stdout);
  });

  it("reads a custom genesis file", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "xchain-genesis-")), "genesis.json");
    const genesis = {
      config: {chainId: "0x64"},
      difficulty: "0x01",
      gasLimit: "0x989680",
      timestamp: "0x0",
      extraData: "0x",
      coinbase: "0x3333333333333333333333333333333333333333",
      minimumGasPrice: "0x0",
      alloc: {"0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826": {balance: "0x1000"}},
    };
    writeFileSync(file, JSON.stringify(genesis));
    const r = await xchain("genesis", "--network", "custom", "--genesis-file", file);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/chain id 100/);
    expect(line(r.stdout, "hash")).toMatch(/^0x[0-9a-f]{64}$/);
    writeFileSync(file, JSON.stringify({...genesis, gasLimit: "lots"}));
    const bad = await xchain("genesis", "--network", "custom", "--genesis-file", file);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/gasLimit/);
  });

  it("reads a geth genesis file, naming what it ignores, and refuses what xchain cannot honour", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "xchain-geth-")), "genesis.json");
    const geth = {
      config: {chainId: 99, homesteadBlock: 0, londonBlock: 0, ethash: {}},
      nonce: "0x42",
      timestamp: "0x0",
      extraData: "0x",
      gasLimit: "0x47b760",
      difficulty: "0x01",
      mixHash: `0x${"00".repeat(32)}`,
      alloc: {cd2a3d9f938e13cd947ec05abc7fe734df8dd826: {balance: "0xffffffffffffffff"}},
    };
    writeFileSync(file, JSON.stringify(geth));
    const r = await xchain("genesis", "--network", "custom", "--genesis-file", file);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/chain id 99/);
    expect(r.stderr).toMatch(/^note: ignored config\.homesteadBlock, config\.londonBlock, config\.ethash, mixHash:/);
    writeFileSync(file, JSON.stringify({...geth, baseFeePerGas: "0x3b9aca00"}));
    const baseFee = await xchain("genesis", "--network", "custom", "--genesis-file", file);
    expect(baseFee.code).toBe(2);
    expect(baseFee.stderr).toMatch(/"baseFeePerGas" is not supported: xchain has no base fee/);
    writeFileSync(file, JSON.stringify({...geth, config: {chainId: 1337}}));
    const chainId = await xchain("genesis", "--network", "custom", "--genesis-file", file);
    expect(chainId.code).toBe(2);
    expect(chainId.stderr).toMatch(/"config\.chainId" must be 1 to 109 \(a transaction's v/);
  });

  it("asks for a genesis file with --network custom", async () => {
    const r = await xchain("genesis", "--network", "custom");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--genesis-file/);
  });
});
