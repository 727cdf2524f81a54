import {mkdtemp, readdir, readFile, rm, stat, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {KeystoreBusyError} from "@xchain/rpc";
import {bytesToHex, hexToBytes, keccak256, utf8ToBytes} from "@xchain/utils";
import {afterEach, beforeEach, describe, expect, it} from "vitest";
import {cowPrivateKeys} from "../../src/wallet/devWallet.ts";
import {KeyfileErrorCode} from "../../src/wallet/keyfile.ts";
import {KeystoreErrorCode, type KeystoreOptions, KeystoreWallet} from "../../src/wallet/keystore.ts";

const KEY = hexToBytes("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318");
const ADDRESS = hexToBytes("2c7536e3605d9c16a7a3d7b1898e529396a65c23");
/** 32 MiB of scrypt: long enough for the event loop to be watched while it runs. */
const HEAVY = {n: 1 << 15, r: 8, p: 1};
const TX = {nonce: 0n, gasPrice: 0n, gasLimit: 21_000n, to: ADDRESS, value: 1n, data: new Uint8Array(0)};

let root: string;
let now: number;
let opts: KeystoreOptions;
const open = (devKeys: Uint8Array[] = [], o: Partial<KeystoreOptions> = {}) =>
  KeystoreWallet.open({...opts, ...o}, {chainId: 33, devKeys, now: () => now});
/** The keyfiles (and temp files) written, none when the directory was never made. */
const written = () => readdir(opts.dir).catch(() => [] as string[]);

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "xchain-keystore-"));
  now = 1_700_000_000_000;
  opts = {
    dir: join(root, "keystore"),
    scrypt: {n: 1024, r: 8, p: 1},
    allowDumpRawKey: false,
    derivations: {running: 1, waiting: 4},
  };
});
afterEach(() => rm(root, {recursive: true, force: true}));

describe("KeystoreWallet (docs/protocol/keystore.md §2, §3)", () => {
  it("imports a key as a 0600 keyfile written atomically, unlocked for 30 minutes", async () => {
    const keystore = await open();
    expect(keystore.storedAccounts()).toEqual([]);
    expect(bytesToHex(await keystore.importRawKey(KEY, "secret"))).toBe(bytesToHex(ADDRESS));
    const names = await readdir(opts.dir);
    expect(names).toEqual([expect.stringMatching(/^UTC--.*--2c7536e3605d9c16a7a3d7b1898e529396a65c23$/)]);
    expect((await stat(join(opts.dir, names[0]!))).mode & 0o777).toBe(0o600);
    expect(keystore.accounts().map(bytesToHex)).toEqual([bytesToHex(ADDRESS)]);
    expect(keystore.signTransaction(ADDRESS, TX).sender()).toEqual(ADDRESS);
    now += 30 * 60 * 1000;
    expect(keystore.hasAccount(ADDRESS)).toBe(false);
    expect(keystore.storedAccounts()).toEqual([ADDRESS]);
  });

  it("finds the keyfiles again on open, skipping files that are not keyfiles", async () => {
    await (await open()).importRawKey(KEY, "secret");
    await writeFile(join(opts.dir, "notes.txt"), "hello");
    const reopened = await open();
    expect(reopened.storedAccounts()).toEqual([ADDRESS]);
    expect(reopened.accounts()).toEqual([]);
  });

  it("unlocks for a duration or until locked, and locks", async () => {
    await (await open()).importRawKey(KEY, "secret");
    const keystore = await open();
    expect(await keystore.unlock(ADDRESS, "secret", 1000)).toBe(true);
    now += 999;
    expect(keystore.hasAccount(ADDRESS)).toBe(true);
    now += 1;
    expect(keystore.hasAccount(ADDRESS)).toBe(false);
    expect(await keystore.unlock(ADDRESS, "secret", 0)).toBe(true);
    now += 10 ** 12;
    expect(keystore.hasAccount(ADDRESS)).toBe(true);
    expect(keystore.lock(ADDRESS)).toBe(true);
    expect(keystore.lock(ADDRESS)).toBe(false);
    expect(await keystore.unlock(hexToBytes("11".repeat(20)), "secret", undefined)).toBe(false);
  });

  it("refuses a wrong passphrase without touching the file", async () => {
    const keystore = await open();
    await keystore.importRawKey(KEY, "secret");
    keystore.lock(ADDRESS);
    const [name] = await readdir(opts.dir);
    const before = await readFile(join(opts.dir, name!), "utf8");
    await expect(keystore.unlock(ADDRESS, "wrong", undefined)).rejects.toMatchObject({
      code: KeyfileErrorCode.WRONG_PASSPHRASE,
    });
    await expect(keystore.decryptedWallet(ADDRESS, "wrong")).rejects.toThrow(/wrong passphrase/);
    expect(await readFile(join(opts.dir, name!), "utf8")).toBe(before);
    expect(keystore.hasAccount(ADDRESS)).toBe(false);
  });

  it("signs with a passphrase for one use, whatever the lock", async () => {
    const keystore = await open();
    await keystore.importRawKey(KEY, "secret");
    keystore.lock(ADDRESS);
    const signer = await keystore.decryptedWallet(ADDRESS, "secret");
    expect(signer?.signTransaction(ADDRESS, TX).sender()).toEqual(ADDRESS);
    expect(keystore.hasAccount(ADDRESS)).toBe(false);
    expect(await keystore.decryptedWallet(hexToBytes("11".repeat(20)), "secret")).toBeUndefined();
  });

  it("creates new accounts, each with its own keyfile", async () => {
    const keystore = await open();
    const a = await keystore.newAccount("one");
    const b = await keystore.newAccount("two");
    expect(bytesToHex(a)).not.toBe(bytesToHex(b));
    expect((await readdir(opts.dir)).length).toBe(2);
    expect((await open()).storedAccounts().map(bytesToHex).sort()).toEqual([a, b].map(bytesToHex).sort());
  });

  it("holds dev and seed accounts unlocked, never written", async () => {
    const [cow] = cowPrivateKeys();
    const keystore = await open([cow!]);
    const seed = keystore.addSeedAccount("cow1");
    expect(bytesToHex(seed)).toBe(bytesToHex((await open([keccak256(utf8ToBytes("cow1"))])).accounts()[0]!));
    expect(keystore.accounts().length).toBe(2);
    now += 10 ** 12;
    expect(keystore.hasAccount(seed)).toBe(true);
    expect(keystore.storedAccounts()).toEqual([]);
  });

  it("dumps an unlocked key only when allowed", async () => {
    const refusing = await open();
    await refusing.importRawKey(KEY, "secret");
    expect(() => refusing.dumpRawKey(ADDRESS)).toThrow(expect.objectContaining({code: KeystoreErrorCode.DUMP_REFUSED}));
    const allowing = await open([], {allowDumpRawKey: true});
    expect(() => allowing.dumpRawKey(ADDRESS)).toThrow(expect.objectContaining({code: KeystoreErrorCode.LOCKED}));
    await allowing.unlock(ADDRESS, "secret", undefined);
    expect(bytesToHex(allowing.dumpRawKey(ADDRESS))).toBe(bytesToHex(KEY));
  });
});

// Key derivations (docs/protocol/keystore.md §5): off the main thread, bounded, and an answer that
// matches the disk. Timing claims are in scripts/bench/keyDerivation.mjs; nothing here depends on a clock.
describe("key derivation off the main thread", () => {
  it("leaves the event loop free while scrypt runs: it turns during the derivation", async () => {
    const keystore = await open([], {scrypt: HEAVY});
    // Turns of the loop (a setImmediate chain) that find the derivation running: none when scrypt
    // runs on the loop (the slot is released before the next turn), some on the thread pool. A
    // count of events, not a time nor a share of it: a loaded machine cannot make it zero.
    let turnsDuringDerivation = 0;
    let making = true;
    const turn = () => {
      if (keystore.derivations.active > 0) turnsDuringDerivation++;
      if (making) setImmediate(turn);
    };
    setImmediate(turn);
    const address = await keystore.newAccount("secret").finally(() => {
      making = false;
    });
    expect(address).toHaveLength(20);
    expect(turnsDuringDerivation).toBeGreaterThan(0);
  });

  it("runs at most `running` derivations at once, and refuses past the queue with KeystoreBusyError", async () => {
    const keystore = await open([], {derivations: {running: 1, waiting: 2}});
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
    const keystore = await open([], {scrypt: HEAVY});
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
