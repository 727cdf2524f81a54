/** `bridge.genesisFederationPublicKeys` (docs/config.md): checked when the options resolve, applied to the chainspec. */
import {chainspecWithFederationKeys, getChainspec} from "@xchain/chainspec";
import {bytesToHex} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {ConfigError, ConfigErrorCode} from "../../src/config/errors.ts";
import {resolveNodeOptions} from "../../src/config/load.ts";

const KEY_1 = `02${"11".repeat(32)}`;
const KEY_2 = `03${"22".repeat(32)}`;
const flags = (entries: [string, string][]) => ({flags: new Map(entries)});

/** The refusal `resolveNodeOptions` gives: a conflict on the key, its reason in the message. */
const refused = (message: string) =>
  expect.objectContaining({code: ConfigErrorCode.CONFLICT, message: expect.stringContaining(message)});

describe("bridge.genesisFederationPublicKeys", () => {
  it("is empty by default: the network's federation", async () => {
    const options = await resolveNodeOptions({});
    expect(options.bridge.genesisFederationPublicKeys).toEqual([]);
    const chainspec = getChainspec("regtest");
    expect(chainspecWithFederationKeys(chainspec, [])).toBe(chainspec);
  });

  it("takes a comma-separated flag on regtest and replaces the genesis federation's keys", async () => {
    const options = await resolveNodeOptions(flags([["bridge.genesisFederationPublicKeys", `${KEY_1},${KEY_2}`]]));
    expect(options.bridge.genesisFederationPublicKeys).toEqual([KEY_1, KEY_2]);
    const chainspec = chainspecWithFederationKeys(getChainspec("regtest"), options.bridge.genesisFederationPublicKeys);
    expect(chainspec.params.bridge.genesisFederation.publicKeys.map((k) => bytesToHex(k))).toEqual([KEY_1, KEY_2]);
  });

  it("refuses a malformed key, naming it", async () => {
    const options = resolveNodeOptions(flags([["bridge.genesisFederationPublicKeys", `${KEY_1},04abcd`]]));
    await expect(options).rejects.toBeInstanceOf(ConfigError);
    await expect(options).rejects.toEqual(refused("04abcd"));
  });

  it("refuses testnet and mainnet, and a fork", async () => {
    for (const network of ["testnet", "mainnet"]) {
      const keys: [string, string][] = [
        ["network", network],
        ["bridge.genesisFederationPublicKeys", KEY_1],
      ];
      await expect(resolveNodeOptions(flags(keys))).rejects.toEqual(refused(`not ${network}`));
    }
    const fork: [string, string][] = [
      ["fork.url", "http://127.0.0.1:1"],
      ["bridge.genesisFederationPublicKeys", KEY_1],
    ];
    await expect(resolveNodeOptions(flags(fork))).rejects.toEqual(refused("does not run on a fork"));
  });
});
