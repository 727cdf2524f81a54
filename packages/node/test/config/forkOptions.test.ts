// Fork mode's options (docs/forking.md §4.1): the [fork] keys resolved, checked against the network and
// each other, the fork block parsed, and what fork mode turns off.
import {hexToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {withEphemeralDataDir} from "../../src/cli/ephemeral.ts";
import {ConfigErrorCode} from "../../src/config/errors.ts";
import {resolveNodeOptions} from "../../src/config/load.ts";
import {effectiveOptions, forkBlockOf} from "../../src/fork/forkOptions.ts";
import {defaultDataDir, forkCacheDir} from "../../src/options.ts";

const URL = "http://127.0.0.1:4444";
const HASH = `0x${"ab".repeat(32)}`;

function flags(entries: Record<string, string | boolean>) {
  return {flags: new Map(Object.entries(entries))};
}

async function refusal(entries: Record<string, string | boolean>) {
  return resolveNodeOptions(flags(entries)).then(
    () => {
      throw new Error("expected a refusal");
    },
    (e: {code: string; message: string}) => e,
  );
}

describe("fork options", () => {
  it("resolve from flags, with the fork's own data directory and its cache inside it", async () => {
    const options = await resolveNodeOptions(
      flags({"fork.url": URL, "fork.block": "120", "fork.verify": "on", "fork.retries": "2"}),
    );
    expect(options.fork).toMatchObject({url: URL, block: "120", verify: "on", retries: 2, offline: false});
    // Unset, the pace is the upstream's (docs/forking.md §1.3: none on loopback); set, it is kept, 0 included.
    expect(options.fork.requestsPerSecond).toBeUndefined();
    const paced = await resolveNodeOptions(flags({"fork.url": URL, "fork.requestsPerSecond": "0"}));
    expect(paced.fork.requestsPerSecond).toBe(0);
    expect(options.dataDir).toBe(defaultDataDir("fork"));
    expect(forkCacheDir(options)).toBe(`${defaultDataDir("fork")}/fork-cache`);
    // A data directory given stays.
    const given = await resolveNodeOptions(flags({"fork.url": URL, dataDir: "/tmp/f"}));
    expect([given.dataDir, forkCacheDir(given)]).toEqual(["/tmp/f", "/tmp/f/fork-cache"]);
    // --dev.ephemeral takes the fork's default directory as it takes regtest's.
    expect(withEphemeralDataDir(options).dataDir).toMatch(/xchain-ephemeral-/);
    // No fork: regtest's directory.
    expect((await resolveNodeOptions({})).dataDir).toBe(defaultDataDir("regtest"));
  });

  it("refuses a fork on mainnet or testnet rules, and fork keys without fork.url", async () => {
    const mainnet = await refusal({"fork.url": URL, network: "mainnet"});
    expect(mainnet.code).toBe(ConfigErrorCode.CONFLICT);
    expect(mainnet.message).toMatch(/^fork\.url: a fork runs regtest's rules .*\(it is mainnet\)$/);
    for (const [key, value] of [
      ["fork.block", "7"],
      ["fork.chainId", "31"],
      ["fork.offline", true],
    ] as const) {
      const stray = await refusal({[key]: value});
      expect(stray.message).toBe(`${key}: it needs fork.url`);
    }
  });

  it("reads fork.block as a number or a 32-byte hash, refusing anything else", async () => {
    expect(forkBlockOf(undefined)).toBeUndefined();
    expect(forkBlockOf("0")).toBe(0);
    expect(forkBlockOf("7000000")).toBe(7_000_000);
    expect(forkBlockOf(HASH)).toEqual(hexToBytes(HASH));
    for (const bad of ["-1", "07", "0x10", "1e6", `${HASH}00`, "latest", "99999999999999999"]) {
      expect(() => forkBlockOf(bad), bad).toThrow(
        /bad value for fork\.block .*a decimal block number or a 0x-prefixed 32-byte block hash/,
      );
    }
    const error = await refusal({"fork.url": URL, "fork.block": "latest"});
    expect(error.code).toBe(ConfigErrorCode.BAD_VALUE);
  });

  it("runs a fork without p2p and call workers, and leaves other nodes alone", async () => {
    const fork = await resolveNodeOptions(flags({"fork.url": URL, "rpc.callWorkers": "2"}));
    const effective = effectiveOptions(fork);
    expect([effective.p2p.enabled, effective.rpc.callWorkers]).toEqual([false, 0]);
    const plain = await resolveNodeOptions(flags({"rpc.callWorkers": "2"}));
    expect(effectiveOptions(plain)).toBe(plain);
  });
});
