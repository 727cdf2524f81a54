/** anvil's state dump format (docs/rpc.md §4.10): xchain's dump round-trips, anvil's loads, bad input is refused by path. */
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {gzipSync} from "node:zlib";
import type {StateDump} from "@xchain/state";
import {bytesToPrefixedHex, hexToBytes, utf8ToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {decodeStateDump, encodeStateDump} from "../../../src/modules/dev/anvilState.ts";

const MAX = 1_000_000;
const fixture = JSON.parse(
  readFileSync(join(import.meta.dirname, "../../../../../test/vectors/anvil/anvil-1.7.1-state-dump.json"), "utf8"),
) as {
  state: string;
  expected: Record<string, {balance: string; nonce: string; code: string; storage?: Record<string, string>}>;
};

const word = (n: number) => {
  const bytes = new Uint8Array(32);
  bytes[31] = n;
  return bytes;
};

/** What `decodeStateDump` says of `json` gzipped. */
const decodeJson = (json: unknown) => decodeStateDump(gzipSync(JSON.stringify(json)), MAX);

describe("anvil state dumps", () => {
  it("xchain's dump decodes back to the same accounts", async () => {
    const dump: StateDump = {
      accounts: [
        {
          address: new Uint8Array(20).fill(1),
          nonce: 3n,
          balance: 2n ** 200n,
          code: Uint8Array.of(0x60, 0),
          storage: [[word(1), word(9)]],
        },
        {address: new Uint8Array(20).fill(2), nonce: 0n, balance: 0n, code: new Uint8Array(0), storage: []},
      ],
      unnamedAccounts: 0,
      unnamedSlots: 0,
    };
    const hex = await encodeStateDump(dump, 7);
    expect(await decodeStateDump(hexToBytes(hex.slice(2)), MAX)).toEqual(dump.accounts);
  });

  it("reads a dump real anvil 1.7.1 made (test/vectors/anvil): accounts, nonces, code and storage", async () => {
    const accounts = await decodeStateDump(hexToBytes(fixture.state.slice(2)), MAX);
    expect(accounts).toHaveLength(15);
    for (const [address, want] of Object.entries(fixture.expected)) {
      const got = accounts.find((a) => bytesToPrefixedHex(a.address) === address);
      expect(got, address).toBeDefined();
      expect(got?.balance).toBe(BigInt(want.balance));
      expect(got?.nonce).toBe(BigInt(want.nonce));
      expect(bytesToPrefixedHex(got?.code ?? new Uint8Array(0))).toBe(want.code);
      for (const [slot, value] of Object.entries(want.storage ?? {})) {
        const stored = got?.storage.find(([s]) => bytesToPrefixedHex(s) === slot);
        expect(stored && bytesToPrefixedHex(stored[1])).toBe(value);
      }
    }
  });

  it("takes plain JSON as anvil does", async () => {
    const json = {accounts: {[`0x${"ab".repeat(20)}`]: {nonce: 1, balance: "0x5", code: "0x", storage: {}}}};
    const [account] = await decodeStateDump(utf8ToBytes(JSON.stringify(json)), MAX);
    expect(account).toMatchObject({nonce: 1n, balance: 5n});
  });

  it.each([
    ["bad gzip", Uint8Array.of(0x1f, 0x8b, 1, 2, 3), /^state: not valid gzip data/],
    ["not JSON", utf8ToBytes("{accounts"), /^state: not gzipped JSON nor JSON/],
    ["not UTF-8", Uint8Array.of(0xff, 0xfe), /^state: not gzipped JSON nor JSON/],
  ])("refuses %s", async (_name, bytes, message) => {
    await expect(decodeStateDump(bytes, MAX)).rejects.toThrow(message);
  });

  it.each([
    ["no accounts", {}, "state.accounts: expected an object, got undefined"],
    ["a bad address", {accounts: {"0x12": {}}}, "state.accounts.0x12 (address)"],
    [
      "a missing field",
      {accounts: {[`0x${"01".repeat(20)}`]: {nonce: 1, code: "0x", storage: {}}}},
      `state.accounts.0x${"01".repeat(20)}.balance: missing`,
    ],
    [
      "a balance as a number",
      {accounts: {[`0x${"01".repeat(20)}`]: {nonce: 1, balance: 5, code: "0x", storage: {}}}},
      `state.accounts.0x${"01".repeat(20)}.balance: expected a string of 0x and 1 to 64 hex digits, got number`,
    ],
    [
      "a negative nonce",
      {accounts: {[`0x${"01".repeat(20)}`]: {nonce: -1, balance: "0x1", code: "0x", storage: {}}}},
      `state.accounts.0x${"01".repeat(20)}.nonce`,
    ],
    [
      "odd code hex",
      {accounts: {[`0x${"01".repeat(20)}`]: {nonce: 1, balance: "0x1", code: "0x123", storage: {}}}},
      `state.accounts.0x${"01".repeat(20)}.code`,
    ],
    [
      "a storage value too long",
      {
        accounts: {
          [`0x${"01".repeat(20)}`]: {nonce: 1, balance: "0x1", code: "0x", storage: {"0x1": `0x${"1".repeat(65)}`}},
        },
      },
      `state.accounts.0x${"01".repeat(20)}.storage.0x1`,
    ],
  ])("refuses %s with the path of the bad field", async (_name, json, path) => {
    await expect(decodeJson(json)).rejects.toThrow(path);
  });

  it("refuses a state that inflates past the limit (a gzip bomb stops at the limit)", async () => {
    const bomb = gzipSync(new Uint8Array(50_000_000));
    expect(bomb.length).toBeLessThan(100_000);
    await expect(decodeStateDump(bomb, MAX)).rejects.toThrow(`state: the state inflates past ${MAX} bytes of JSON`);
    await expect(decodeStateDump(new Uint8Array(MAX + 1).fill(0x20), MAX)).rejects.toThrow(`passes ${MAX} bytes`);
  });
});
