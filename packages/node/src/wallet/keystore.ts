/**
 * The node's keystore (docs/protocol/keystore.md): Web3 Secret Storage v3 keyfiles under
 * `<datadir>/keystore`, and the accounts unlocked from them in memory with an optional expiry.
 * It is the node's `DevWallet` too: the unlocked accounts sign beside the dev accounts, which it
 * holds unlocked for good, as rskj's wallet holds its seed accounts.
 * Key derivations (scrypt) run off the main thread, bounded by `DerivationSlots`, and each answer
 * matches the disk: a request told to stop (its timeout, its client gone) writes no keyfile and
 * unlocks nothing (docs/protocol/keystore.md §5).
 */
import {randomBytes} from "node:crypto";
import {renameSync} from "node:fs";
import {chmod, readdir, readFile, rm, writeFile} from "node:fs/promises";
import {join} from "node:path";
import type {Transaction, TransactionValues} from "@xchain/primitives";
import {type DevWallet, type Keystore, KeystoreErrorCode, PrivateKeyWallet} from "@xchain/rpc";
import {bytesToHex, hexToBytesOrNull, keccak256, makeDirectory, NodeError, utf8ToBytes} from "@xchain/utils";
import {type DerivationBounds, DerivationSlots} from "./derivationSlots.ts";
import {decryptKey, encryptKey, type Keyfile, type ScryptParams} from "./keyfile.ts";

/** docs/protocol/keystore.md §3: new and imported keys stay unlocked 30 minutes, as in rskj. */
const DEFAULT_UNLOCK_MS = 30 * 60 * 1000;

/** Each reason the keystore refuses: the codes of the `Keystore` contract, which rpc maps to the wire. */
export {KeystoreErrorCode};

/** Each code with its metadata. */
export type KeystoreErrorType = {code: KeystoreErrorCode; address: string};

/** A keystore refusal; the message says why. */
export class KeystoreError extends NodeError<KeystoreErrorType> {}

/** How the keystore stores and releases keys. */
export interface KeystoreOptions {
  /** The keyfile directory (`<datadir>/keystore`), created on the first write. */
  dir: string;
  /** scrypt parameters of the files it writes (geth's standard; tests use lighter ones). */
  scrypt: ScryptParams;
  /** Whether personal_dumpRawKey may reveal an unlocked key (`wallet.allowDumpRawKey`). */
  allowDumpRawKey: boolean;
  /** Key derivations at once and waiting (`wallet.keyDerivations`, `wallet.keyDerivationQueue`). */
  derivations: DerivationBounds;
}

/** What the keystore is given. */
export interface KeystoreModules {
  chainId: number;
  /** Keys unlocked for good and never written: the dev accounts (none off regtest). */
  devKeys: readonly Uint8Array[];
  /** Milliseconds since the epoch (tests pass a fake clock). */
  now?: () => number;
}

/** Keyfiles on disk, unlocked keys in memory. */
export class KeystoreWallet implements DevWallet, Keystore {
  private readonly unlocked: PrivateKeyWallet;
  /** Expiry (ms since the epoch) of each timed unlock, by address hex; absent: until locked. */
  private readonly expiries = new Map<string, number>();
  /** Keyfile name by address hex, read from the directory at open and kept up to date. */
  private readonly files: Map<string, string>;
  private readonly now: () => number;
  private readonly chainId: number;
  /** Every scrypt of this keystore runs in one of these. */
  readonly derivations: DerivationSlots;

  private constructor(
    private readonly opts: KeystoreOptions,
    modules: KeystoreModules,
    files: Map<string, string>,
  ) {
    this.unlocked = new PrivateKeyWallet(modules.devKeys, modules.chainId);
    this.files = files;
    this.now = modules.now ?? Date.now;
    this.chainId = modules.chainId;
    this.derivations = new DerivationSlots(opts.derivations);
  }

  /** Reads the keyfile names of `opts.dir` (a missing directory is an empty keystore). */
  static async open(opts: KeystoreOptions, modules: KeystoreModules): Promise<KeystoreWallet> {
    const files = new Map<string, string>();
    const names = await readdir(opts.dir).catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return [] as string[];
      throw e;
    });
    for (const name of names.sort()) {
      const address = await addressOfFile(join(opts.dir, name));
      if (address && !files.has(address)) files.set(address, name);
    }
    return new KeystoreWallet(opts, modules, files);
  }

  accounts(): Uint8Array[] {
    this.purgeExpired();
    return this.unlocked.accounts();
  }

  hasAccount(address: Uint8Array): boolean {
    this.purgeExpired();
    return this.unlocked.hasAccount(address);
  }

  signTransaction(from: Uint8Array, values: TransactionValues): Transaction {
    this.purgeExpired();
    return this.unlocked.signTransaction(from, values);
  }

  signMessage(from: Uint8Array, message: Uint8Array): Uint8Array {
    this.purgeExpired();
    return this.unlocked.signMessage(from, message);
  }

  signDigest(from: Uint8Array, digest: Uint8Array): Uint8Array {
    this.purgeExpired();
    return this.unlocked.signDigest(from, digest);
  }

  storedAccounts(): Uint8Array[] {
    return [...this.files.keys()].map((hex) => hexToBytesOrNull(hex) as Uint8Array);
  }

  async newAccount(passphrase: string, signal?: AbortSignal): Promise<Uint8Array> {
    return this.store(new Uint8Array(randomBytes(32)), passphrase, signal);
  }

  async importRawKey(privateKey: Uint8Array, passphrase: string, signal?: AbortSignal): Promise<Uint8Array> {
    return this.store(privateKey, passphrase, signal);
  }

  addSeedAccount(seed: string): Uint8Array {
    const address = this.unlocked.add(keccak256(utf8ToBytes(seed)));
    this.expiries.delete(bytesToHex(address));
    return address;
  }

  async unlock(
    address: Uint8Array,
    passphrase: string,
    durationMs: number | undefined,
    signal?: AbortSignal,
  ): Promise<boolean> {
    const name = this.files.get(bytesToHex(address));
    if (name === undefined) return false;
    const key = await this.decrypt(name, passphrase, signal);
    // In the turn the key came: a request told to stop unlocks nothing.
    signal?.throwIfAborted();
    this.hold(key, durationMs ?? DEFAULT_UNLOCK_MS);
    return true;
  }

  lock(address: Uint8Array): boolean {
    this.purgeExpired();
    this.expiries.delete(bytesToHex(address));
    return this.unlocked.remove(address);
  }

  async decryptedWallet(from: Uint8Array, passphrase: string, signal?: AbortSignal): Promise<DevWallet | undefined> {
    const name = this.files.get(bytesToHex(from));
    if (name === undefined) return undefined;
    return new PrivateKeyWallet([await this.decrypt(name, passphrase, signal)], this.chainId);
  }

  dumpRawKey(address: Uint8Array): Uint8Array {
    if (!this.opts.allowDumpRawKey) {
      throw refusal(
        KeystoreErrorCode.DUMP_REFUSED,
        address,
        "wallet.allowDumpRawKey is off: will not reveal the key of",
      );
    }
    if (!this.hasAccount(address)) throw refusal(KeystoreErrorCode.LOCKED, address, "not unlocked:");
    return this.unlocked.privateKeyOf(address);
  }

  /** The key of a keyfile, derived in a slot; nothing is written, whatever the outcome. */
  private async decrypt(name: string, passphrase: string, signal: AbortSignal | undefined): Promise<Uint8Array> {
    const text = await readFile(join(this.opts.dir, name), "utf8");
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return this.derivations.run(() => decryptKey(json, passphrase), signal);
  }

  /**
   * Encrypts the key in a slot, writes the keyfile (temp file, mode 0600, then rename) and unlocks
   * the key for the default duration. A request told to stop before the rename leaves no file; the
   * rename is synchronous, in the same turn as that check and as the answer's resolution, so that no
   * timeout can be answered once the file is there (docs/protocol/keystore.md §5).
   */
  private async store(
    privateKey: Uint8Array,
    passphrase: string,
    signal: AbortSignal | undefined,
  ): Promise<Uint8Array> {
    const keyfile: Keyfile = await this.derivations.run(
      () => encryptKey(privateKey, passphrase, this.opts.scrypt),
      signal,
    );
    signal?.throwIfAborted();
    const name = `UTC--${new Date(this.now()).toISOString().replaceAll(":", "-")}--${keyfile.address}`;
    await makeDirectory(this.opts.dir, 0o700);
    const temp = join(this.opts.dir, `.${name}.tmp`);
    try {
      await writeFile(temp, JSON.stringify(keyfile), {mode: 0o600, flag: "wx"});
      await chmod(temp, 0o600);
      signal?.throwIfAborted();
      renameSync(temp, join(this.opts.dir, name));
    } catch (e) {
      // Not when the name was taken: that temp file is another write's.
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") await rm(temp, {force: true});
      throw e;
    }
    this.files.set(keyfile.address, name);
    return this.hold(privateKey, DEFAULT_UNLOCK_MS);
  }

  private hold(privateKey: Uint8Array, durationMs: number): Uint8Array {
    const address = this.unlocked.add(privateKey);
    const hex = bytesToHex(address);
    if (durationMs === 0) this.expiries.delete(hex);
    else this.expiries.set(hex, this.now() + durationMs);
    return address;
  }

  private purgeExpired(): void {
    const now = this.now();
    for (const [hex, expiry] of this.expiries) {
      if (expiry > now) continue;
      this.expiries.delete(hex);
      this.unlocked.remove(hexToBytesOrNull(hex) as Uint8Array);
    }
  }
}

/** The lowercase address hex a keyfile names, or undefined for a file that is not one (skipped). */
async function addressOfFile(path: string): Promise<string | undefined> {
  if (path.endsWith(".tmp")) return undefined;
  try {
    const {address} = JSON.parse(await readFile(path, "utf8")) as {address?: unknown};
    if (typeof address !== "string") return undefined;
    const bytes = hexToBytesOrNull(address.toLowerCase().replace(/^0x/, ""));
    return bytes?.length === 20 ? bytesToHex(bytes) : undefined;
  } catch {
    return undefined;
  }
}

function refusal(code: KeystoreErrorCode, address: Uint8Array, what: string): KeystoreError {
  const hex = `0x${bytesToHex(address)}`;
  return new KeystoreError({code, address: hex}, `${what} ${hex}`);
}
