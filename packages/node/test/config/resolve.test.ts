import {mkdtempSync, writeFileSync} from "node:fs";
import {homedir, tmpdir} from "node:os";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {ConfigError, ConfigErrorCode} from "../../src/config/errors.ts";
import {resolveNodeOptions} from "../../src/config/load.ts";

const dir = mkdtempSync(join(tmpdir(), "xchain-config-"));
let fileCount = 0;

function configFile(text: string): string {
  const path = join(dir, `config${fileCount++}.toml`);
  writeFileSync(path, text);
  return path;
}

async function refusal(promise: Promise<unknown>): Promise<ConfigError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe("resolveNodeOptions", () => {
  it("starts from the regtest preset: dev wallet on, data under ~/.xchain/regtest", async () => {
    const options = await resolveNodeOptions({});
    expect(options.network).toBe("regtest");
    expect(options.wallet.enabled).toBe(true);
    expect(options.dataDir).toMatch(/\.xchain[/\\]regtest$/);
  });

  it("applies defaults < network preset < file < flags", async () => {
    const file = configFile('network = "testnet"\n[log]\nlevel = "debug"\n[state]\ncacheMb = 64\n');
    const fromFile = await resolveNodeOptions({configFile: file});
    expect(fromFile.network).toBe("testnet");
    expect(fromFile.wallet.enabled).toBe(false);
    expect(fromFile.dataDir).toMatch(/testnet$/);
    expect(fromFile.log.level).toBe("debug");
    const flags = new Map([
      ["network", "regtest"],
      ["state.cacheMb", "32"],
      ["dataDir", "/tmp/x"],
    ]);
    const withFlags = await resolveNodeOptions({configFile: file, flags});
    expect(withFlags).toMatchObject({
      network: "regtest",
      dataDir: "/tmp/x",
      state: {cacheMb: 32},
      log: {level: "debug"},
    });
    expect(withFlags.wallet.enabled).toBe(true);
  });

  it("gives each network its preset: the miner and dev wallet on regtest only", async () => {
    const regtest = await resolveNodeOptions({});
    expect(regtest.miner).toMatchObject({enabled: true, autoMine: true, blockTimeMs: 1000, devControls: true});
    const mainnet = await resolveNodeOptions({flags: new Map([["network", "mainnet"]])});
    expect(mainnet.miner).toMatchObject({enabled: false, blockTimeMs: 0, devControls: false});
    expect(mainnet.wallet.enabled).toBe(false);
    expect(mainnet.rpc.http).toEqual({
      enabled: true,
      host: "127.0.0.1",
      port: 4444,
      vhosts: ["localhost", "127.0.0.1", "[::1]"],
    });
    expect(mainnet.rpc.ws.port).toBe(4445);
  });

  it("parses every kind of value the same from the file and from flags", async () => {
    const file = configFile(
      [
        "[miner]",
        'coinbase = "0x00000000000000000000000000000000000000aa"',
        "minGasPriceInWei = 60000000",
        "[rpc]",
        'corsOrigins = ["*"]',
        "[rpc.modules.debug]",
        "enabled = false",
        "[rpc.http]",
        'host = "0.0.0.0"',
        'vhosts = ["node.example", "10.0.0.5"]',
      ].join("\n"),
    );
    const options = await resolveNodeOptions({configFile: file});
    expect(options.miner.coinbase).toEqual(Uint8Array.from([...new Array(19).fill(0), 0xaa]));
    expect(options.miner.minGasPriceInWei).toBe(60_000_000n);
    expect(options.rpc.corsOrigins).toEqual(["*"]);
    expect(options.rpc.modules).toEqual({debug: {enabled: false}});
    expect(options.rpc.http).toEqual({
      enabled: true,
      host: "0.0.0.0",
      port: 4444,
      vhosts: ["node.example", "10.0.0.5"],
    });
    const flags = new Map<string, string | boolean>([
      ["miner.minGasPriceInWei", "0x10"],
      ["miner.enabled", true],
      ["rpc.corsOrigins", "https://a.example, https://b.example"],
      ["rpc.modules.evm.enabled", "false"],
      ["rpc.ws.origins", "http://localhost:3000, https://app.example"],
      ["dataDir", "~/chain"],
    ]);
    const withFlags = await resolveNodeOptions({configFile: file, flags});
    expect(withFlags.miner.minGasPriceInWei).toBe(16n);
    expect(withFlags.rpc.corsOrigins).toEqual(["https://a.example", "https://b.example"]);
    expect(withFlags.rpc.modules).toEqual({debug: {enabled: false}, evm: {enabled: false}});
    expect(withFlags.rpc.ws.origins).toEqual(["http://localhost:3000", "https://app.example"]);
    expect(withFlags.dataDir).toBe(join(homedir(), "chain"));
  });

  it("refuses an unknown key in the file, listing the valid keys of its table", async () => {
    const e = await refusal(resolveNodeOptions({configFile: configFile("[log]\nlevl = 1\n")}));
    expect(e.type).toMatchObject({
      code: ConfigErrorCode.UNKNOWN_KEY,
      key: "log.levl",
      validKeys: ["level", "headStallSeconds", "transactions"],
    });
    expect(e.message).toMatch(/unknown key "log\.levl".*level/);
    const top = await refusal(resolveNodeOptions({configFile: configFile("[nope]\na = 1\n")}));
    expect(top.message).toMatch(/"nope".*network, dataDir/);
  });

  it("refuses a bad value, naming the key and what it accepts", async () => {
    const level = await refusal(resolveNodeOptions({configFile: configFile('[log]\nlevel = "loud"\n')}));
    expect(level.type).toMatchObject({code: ConfigErrorCode.BAD_VALUE, key: "log.level"});
    expect(level.message).toMatch(/log\.level.*"loud".*one of trace, debug, info/);
    const cache = await refusal(resolveNodeOptions({flags: new Map([["state.cacheMb", "-1"]])}));
    expect(cache.message).toMatch(/state\.cacheMb \(--state\.cacheMb\).*an integer in 0\.\.65536/);
    const wallet = await refusal(resolveNodeOptions({flags: new Map([["wallet.enabled", "yes"]])}));
    expect(wallet.message).toMatch(/true or false/);
    const network = await refusal(resolveNodeOptions({flags: new Map([["network", "moon"]])}));
    expect(network.message).toMatch(/mainnet, testnet, regtest, custom/);
  });

  it("refuses too many bootnodes or a too long one before parsing any, naming the key and the bound", async () => {
    const peer = "/ip4/10.0.0.5/tcp/30001/p2p/16Uiu2HAmBgNgd3mDAeYbXRsvnN4BHptazSX2Zx4Q28DNe4WDFMk3";
    const many = Array.from({length: 65}, () => peer);
    expect(
      (await resolveNodeOptions({flags: new Map([["p2p.bootnodes", many.slice(1).join(",")]])})).p2p.bootnodes,
    ).toHaveLength(64);
    const fromFlag = await refusal(resolveNodeOptions({flags: new Map([["p2p.bootnodes", many.join(",")]])}));
    expect(fromFlag.message).toBe(
      "bad value for p2p.bootnodes (--p2p.bootnodes): a list of 65 entries; expected a list of at most 64 strings of at most 512 characters each",
    );
    const fromFile = await refusal(
      resolveNodeOptions({configFile: configFile(`[p2p]\nbootnodes = ${JSON.stringify(many)}\n`)}),
    );
    expect(fromFile.type).toMatchObject({
      code: ConfigErrorCode.BAD_VALUE,
      key: "p2p.bootnodes",
      value: "a list of 65 entries",
    });
    // 100 KB: refused at once, and the message quotes only its start.
    const long = `/ip4/1.2.3.4/tcp/1/p2p/${"Q".repeat(100_000)}`;
    const tooLong = await refusal(resolveNodeOptions({flags: new Map([["p2p.bootnodes", `${peer},${long}`]])}));
    expect(tooLong.message).toMatch(
      /^bad value for p2p\.bootnodes \(--p2p\.bootnodes\): entry 2 "\/ip4\/1\.2\.3\.4\/tcp\/1\/p2p\/Q+"… \(100023 characters\); expected a list of at most 64 strings of at most 512 characters each$/,
    );
    expect(tooLong.message.length).toBeLessThan(400);
  });

  it("reports a TOML syntax error and an unreadable file", async () => {
    const syntax = await refusal(resolveNodeOptions({configFile: configFile("[log\n")}));
    expect(syntax.code).toBe(ConfigErrorCode.TOML_SYNTAX);
    // The file, line and column in the compiler's form, then the line with a caret under the column.
    const path = configFile('network = "regtest"\n\n[rpc]\nhttp.port = = 3\n');
    const placed = await refusal(resolveNodeOptions({configFile: path}));
    expect(placed.message.split("\n")[0]).toBe(`${path}:4:13: not valid TOML: invalid value`);
    expect(placed.message).toContain("4:  http.port = = 3\n                ^");
    expect(placed.type).toMatchObject({line: 4, column: 13});
    const missing = await refusal(resolveNodeOptions({configFile: join(dir, "absent.toml")}));
    expect(missing.code).toBe(ConfigErrorCode.FILE_UNREADABLE);
  });

  it("keeps the dev wallet to regtest and the genesis file to custom", async () => {
    const wallet = await refusal(
      resolveNodeOptions({
        flags: new Map<string, string | boolean>([
          ["network", "mainnet"],
          ["wallet.enabled", true],
        ]),
      }),
    );
    expect(wallet.type).toMatchObject({code: ConfigErrorCode.CONFLICT, key: "wallet.enabled"});
    const custom = await refusal(resolveNodeOptions({flags: new Map([["network", "custom"]])}));
    expect(custom.type).toMatchObject({code: ConfigErrorCode.CONFLICT, key: "genesisFile"});
  });

  it("refuses the built-in miner without the work server, and reads the follower's pair", async () => {
    const serverOff = new Map<string, string | boolean>([["miner.server.enabled", false]]);
    const conflict = await refusal(resolveNodeOptions({flags: serverOff}));
    expect(conflict.type).toMatchObject({code: ConfigErrorCode.CONFLICT, key: "miner.server.enabled"});
    const follower = await resolveNodeOptions({flags: new Map([...serverOff, ["miner.enabled", false]])});
    expect(follower.miner).toMatchObject({enabled: false, server: {enabled: false}});
    expect((await resolveNodeOptions({flags: new Map()})).miner.server).toEqual({enabled: true});
  });
});
