import {bytesToHex, bytesToPrefixedHex, hexToBytes} from "@xchain/utils";
import {encryptKeystoreJson, Wallet} from "ethers";
import {describe, expect, it} from "vitest";
import {decryptKey, encryptKey, KeyfileErrorCode} from "../../src/wallet/keyfile.ts";

/** Light scrypt parameters for speed; the node writes geth's standard ones. */
const LIGHT = {n: 1024, r: 8, p: 1};
const KEY = hexToBytes("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318");
const ADDRESS = "2c7536e3605d9c16a7a3d7b1898e529396a65c23";

async function codeOf(work: Promise<unknown>): Promise<string | undefined> {
  try {
    await work;
    return undefined;
  } catch (e) {
    return (e as {code?: string}).code;
  }
}

describe("keyfile (docs/protocol/keystore.md §2)", () => {
  it("writes a v3 scrypt/aes-128-ctr file that decrypts to the key", async () => {
    const file = await encryptKey(KEY, "secret", LIGHT);
    expect(file.version).toBe(3);
    expect(file.address).toBe(ADDRESS);
    expect(file.crypto.cipher).toBe("aes-128-ctr");
    expect(file.crypto.kdfparams).toMatchObject({dklen: 32, n: 1024, r: 8, p: 1});
    expect(bytesToHex(await decryptKey(JSON.parse(JSON.stringify(file)), "secret"))).toBe(bytesToHex(KEY));
  });

  it("decrypts in ethers (Wallet.fromEncryptedJson)", async () => {
    const file = await encryptKey(KEY, "pässword", LIGHT);
    const wallet = await Wallet.fromEncryptedJson(JSON.stringify(file), "pässword");
    expect(wallet.privateKey).toBe(bytesToPrefixedHex(KEY));
  });

  it("decrypts a file ethers wrote (the encryption Wallet.encrypt uses, lighter scrypt)", async () => {
    const json = await encryptKeystoreJson(new Wallet(bytesToPrefixedHex(KEY)), "pässword", {
      scrypt: {N: 1024, r: 8, p: 1},
    });
    expect(bytesToHex(await decryptKey(JSON.parse(json), "pässword"))).toBe(bytesToHex(KEY));
  });

  it("refuses a wrong passphrase and corrupt files precisely", async () => {
    const file = await encryptKey(KEY, "secret", LIGHT);
    expect(await codeOf(decryptKey(file, "wrong"))).toBe(KeyfileErrorCode.WRONG_PASSPHRASE);
    expect(await codeOf(decryptKey({...file, version: 1}, "secret"))).toBe(KeyfileErrorCode.CORRUPT);
    expect(await codeOf(decryptKey(undefined, "secret"))).toBe(KeyfileErrorCode.CORRUPT);
    const pbkdf2 = {...file, crypto: {...file.crypto, kdf: "pbkdf2"}};
    expect(await codeOf(decryptKey(pbkdf2, "secret"))).toBe(KeyfileErrorCode.CORRUPT);
    const huge = {...file, crypto: {...file.crypto, kdfparams: {...file.crypto.kdfparams, n: 2 ** 24}}};
    await expect(decryptKey(huge, "secret")).rejects.toThrow(/more than 1 GiB/);
    const badIv = {...file, crypto: {...file.crypto, cipherparams: {iv: "zz"}}};
    await expect(decryptKey(badIv, "secret")).rejects.toThrow(/cipherparams.iv/);
    const otherAddress = {...file, address: "11".repeat(20)};
    await expect(decryptKey(otherAddress, "secret")).rejects.toThrow(/not the address's/);
  });
});
