/** An in-memory `Keystore` for RPC tests: the keyfile format and its crypto are the node's (its own tests). */
import {publicKeyToAddress} from "@xchain/primitives";
import {type Keystore, PrivateKeyWallet} from "@xchain/rpc";
import {hexToBytes, NodeError, publicKeyOf, toData} from "@xchain/utils";
import {cows} from "./node.ts";

/** The stored key, under the passphrase "secret". */
export const KEY = hexToBytes("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318");
/** Its address. */
export const STORED = toData(publicKeyToAddress(publicKeyOf(KEY)));

/** An in-memory keystore: one stored key under "secret"; the unlocked keys sign through `unlocked`. */
export class FakeKeystore implements Keystore {
  readonly unlocked = new PrivateKeyWallet([...cows.map((c) => c.privateKey)], 33);
  readonly durations: (number | undefined)[] = [];
  private readonly stored = new Map<string, Uint8Array>([[STORED, KEY]]);

  storedAccounts() {
    return [...this.stored.keys()].map(hexToBytes);
  }
  async newAccount(_passphrase: string) {
    return this.unlocked.add(hexToBytes(`0x${"22".repeat(32)}`));
  }
  async importRawKey(key: Uint8Array, _passphrase: string) {
    const address = this.unlocked.add(key);
    this.stored.set(toData(address), key);
    return address;
  }
  addSeedAccount(_seed: string) {
    return this.unlocked.add(hexToBytes(`0x${"33".repeat(32)}`));
  }
  async unlock(address: Uint8Array, passphrase: string, durationMs: number | undefined) {
    const key = this.stored.get(toData(address));
    if (!key) return false;
    if (passphrase !== "secret") throw new NodeError({code: "KEYFILE_WRONG_PASSPHRASE"}, "wrong passphrase");
    this.durations.push(durationMs);
    this.unlocked.add(key);
    return true;
  }
  lock(address: Uint8Array) {
    return this.unlocked.remove(address);
  }
  async decryptedWallet(from: Uint8Array, passphrase: string) {
    const key = this.stored.get(toData(from));
    if (!key) return undefined;
    if (passphrase !== "secret") throw new NodeError({code: "KEYFILE_WRONG_PASSPHRASE"}, "wrong passphrase");
    return new PrivateKeyWallet([key], 33);
  }
  dumpRawKey(address: Uint8Array) {
    if (!this.unlocked.hasAccount(address)) throw new NodeError({code: "KEYSTORE_LOCKED"}, "not unlocked");
    return this.unlocked.privateKeyOf(address);
  }
}
