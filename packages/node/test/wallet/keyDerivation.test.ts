/**
 * The keystore's key derivations (docs/protocol/keystore.md §5): scrypt runs off the main thread,
 * at most `derivations.running` at once, and a request told to stop leaves no keyfile and unlocks
 * nothing. Timing claims are in scripts/bench/keyDerivation.mjs; nothing here depends on a clock.
 */
import {mkdtemp, readdir, rm} from "node:fs/promises";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {performance} from "node:perf_hooks";
import {KeystoreBusyError} from "@xchain/rpc";
import {bytesToHex, hexToBytes} from "@xchain/utils";
import {afterEach, beforeEach, describe, expect, it} from "vitest";
import {type KeystoreOptions, KeystoreWallet} from "../../src/wallet/keystore.ts";

const KEY = hexToBytes("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318");
const ADDRESS = hexToBytes("2c7536e3605d9c16a7a3d7b1898e529396a65c23");
/** 32 MiB of scrypt: long enough for the event loop to be watched while it runs. */
const HEAVY = {n: 1 << 15, r: 8, p: 1};

let root: string;
let opts: KeystoreOptions;
const open = (o: Partial<KeystoreOptions> = {}) => KeystoreWallet.open({...opts, ...o}, {chainId: 33, devKeys: []});
/** The keyfiles (and temp files) written, none when the directory was never made. */
const written = () => readdir(opts.dir).catch(() => [] as string[]);

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "xchain-kdf-"));
  opts = {
    dir: join(root, "keystore"),
    scrypt: {n: 1024, r: 8, p: 1},
    allowDumpRawKey: false,
    derivations: {running: 1, waiting: 4},
  };
});
afterEach(() => rm(root, {recursive: true, force: true}));

describe("key derivation off the main thread", () => {
  it("leaves the event loop idle while scrypt runs: timers keep firing and the loop mostly waits", async () => {
    const keystore = await open({scrypt: HEAVY});
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    const before = performance.eventLoopUtilization();
    const address = await keystore.newAccount("secret");
    // The share of the time the loop was busy (a ratio, not a duration): near 1 when scrypt runs on it.
    const {utilization} = performance.eventLoopUtilization(before);
    clearInterval(ticker);
    expect(address).toHaveLength(20);
    expect(ticks).toBeGreaterThan(0);
    expect(utilization).toBeLessThan(0.5);
  });

  it("runs at most `running` derivations at once, and refuses past the queue with KeystoreBusyError", async () => {
    const keystore = await open({derivations: {running: 1, waiting: 2}});
    let most = 0;
    const sampler = setInterval(() => {
      most = Math.max(most, keystore.derivations.active);
    }, 0);
    const calls = Array.from({length: 4}, (_, i) => keystore.newAccount(`pass ${i}`).catch((e: unknown) => e));
    const outcomes = await Promise.all(calls);
    clearInterval(sampler);
    expect(outcomes.filter((o) => o instanceof KeystoreBusyError)).toHaveLength(1);
    expect(outcomes.filter((o) => o instanceof Uint8Array)).toHaveLength(3);
    expect(most).toBe(1);
    expect(await written()).toHaveLength(3);
  });
});

describe("an answer consistent with the disk", () => {
  it("writes no keyfile for a request aborted while its key is derived", async () => {
    const keystore = await open({scrypt: HEAVY});
    const controller = new AbortController();
    const stored = keystore.newAccount("secret", controller.signal);
    controller.abort(new Error("timed out"));
    await expect(stored).rejects.toThrow("timed out");
    expect(await written()).toEqual([]);
    expect(keystore.storedAccounts()).toEqual([]);
    expect(keystore.accounts()).toEqual([]);
  });

  it("writes no keyfile for a request aborted while it waits for a derivation", async () => {
    const keystore = await open();
    const first = keystore.importRawKey(KEY, "secret");
    const controller = new AbortController();
    const waiting = keystore.newAccount("other", controller.signal);
    controller.abort(new Error("client left"));
    await expect(waiting).rejects.toThrow("client left");
    expect(bytesToHex(await first)).toBe(bytesToHex(ADDRESS));
    expect(await written()).toHaveLength(1);
  });

  it("unlocks nothing for an unlock aborted while it derives", async () => {
    const keystore = await open();
    await keystore.importRawKey(KEY, "secret");
    keystore.lock(ADDRESS);
    const controller = new AbortController();
    const unlocking = keystore.unlock(ADDRESS, "secret", undefined, controller.signal);
    controller.abort(new Error("timed out"));
    await expect(unlocking).rejects.toThrow("timed out");
    expect(keystore.hasAccount(ADDRESS)).toBe(false);
  });

  it("returns the address whenever the keyfile was written", async () => {
    const keystore = await open();
    const controller = new AbortController();
    const address = await keystore.newAccount("secret", controller.signal);
    controller.abort(new Error("too late"));
    const files = await written();
    expect(files).toHaveLength(1);
    expect(files[0]).toContain(bytesToHex(address));
  });
});
