import {mkdtemp, readdir, readFile, rm, stat, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {bytesToHex, hexToBytes, keccak256, utf8ToBytes} from "@xchain/utils";
import {afterEach, beforeEach, describe, expect, it} from "vitest";
import {cowPrivateKeys} from "../../src/wallet/devWallet.ts";
import {KeyfileErrorCode} from "../../src/wallet/keyfile.ts";
import {KeystoreErrorCode, type KeystoreOptions, KeystoreWallet} from "../../src/wallet/keystore.ts";

const KEY = hexToBytes("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318");
const ADDRESS = hexToBytes("2c7536e3605d9c16a7a3d7b1898e529396a65c23");
const TX = {nonce: 0n, gasPrice: 0n, gasLimit: 21_000n, to: ADDRESS, value: 1n, data: new Uint8Array(0)};

let root: string;
let now: number;
let opts: KeystoreOptions;
const open = (devKeys: Uint8Array[] = [], o: Partial<KeystoreOptions> = {}) =>
  KeystoreWallet.open({...opts, ...o}, {chainId: 33, devKeys, now: () => now});

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
