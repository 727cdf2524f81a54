/**
 * Web3 Secret Storage v3 keyfiles (docs/protocol/keystore.md §2): a private key encrypted with
 * aes-128-ctr under the first half of an scrypt-derived key, authenticated by keccak-256 of the
 * second half followed by the ciphertext. The format geth, ethers and web3.js read and write.
 */
import {createCipheriv, createDecipheriv, randomBytes, randomUUID, scrypt} from "node:crypto";
import {publicKeyToAddress} from "@xchain/primitives";
import {KeyfileErrorCode} from "@xchain/rpc";
import {
  bytesToHex,
  concatBytes,
  equalBytes,
  hexToBytesOrNull,
  keccak256,
  NodeError,
  publicKeyOf,
  utf8ToBytes,
} from "@xchain/utils";

/** scrypt's cost parameters. */
export interface ScryptParams {
  n: number;
  r: number;
  p: number;
}

/** geth's "standard" parameters (docs/protocol/keystore.md §2): about a second per unlock. */
export const STANDARD_SCRYPT: ScryptParams = {n: 262_144, r: 8, p: 1};

/** The largest scrypt memory a keyfile may demand (`scryptMemory`): 1 GiB, 4× geth's standard. */
const MAX_SCRYPT_MEMORY = 1 << 30;

/**
 * The bytes scrypt allocates for `params`, as OpenSSL counts them against `maxmem`: the V array
 * (128·r·(n + 2)) and the p blocks (128·r·p). 256 MiB for geth's standard parameters.
 */
export function scryptMemory({n, r, p}: ScryptParams): number {
  return 128 * r * (n + p + 2);
}

/** Each reason a keyfile does not give its key: codes of the `Keystore` contract, which rpc maps to the wire. */
export {KeyfileErrorCode};

/** Each code with its metadata. */
export type KeyfileErrorType =
  | {code: KeyfileErrorCode.CORRUPT; reason: string}
  | {code: KeyfileErrorCode.WRONG_PASSPHRASE};

/** A keyfile that cannot be decrypted. */
export class KeyfileError extends NodeError<KeyfileErrorType> {}

/** The JSON of a v3 keyfile (address without `0x`, as geth writes it). */
export interface Keyfile {
  version: 3;
  id: string;
  address: string;
  crypto: {
    cipher: "aes-128-ctr";
    ciphertext: string;
    cipherparams: {iv: string};
    kdf: "scrypt";
    kdfparams: {dklen: 32; n: number; r: number; p: number; salt: string};
    mac: string;
  };
}

/** Encrypts `privateKey` under `passphrase` (fresh salt, IV and id). */
export async function encryptKey(
  privateKey: Uint8Array,
  passphrase: string,
  params: ScryptParams = STANDARD_SCRYPT,
): Promise<Keyfile> {
  const salt = new Uint8Array(randomBytes(32));
  const iv = new Uint8Array(randomBytes(16));
  const derived = await deriveKey(passphrase, salt, params);
  const ciphertext = aes128Ctr(true, derived.subarray(0, 16), iv, privateKey);
  return {
    version: 3,
    id: randomUUID(),
    address: bytesToHex(publicKeyToAddress(publicKeyOf(privateKey))),
    crypto: {
      cipher: "aes-128-ctr",
      ciphertext: bytesToHex(ciphertext),
      cipherparams: {iv: bytesToHex(iv)},
      kdf: "scrypt",
      kdfparams: {dklen: 32, ...params, salt: bytesToHex(salt)},
      mac: bytesToHex(macOf(derived, ciphertext)),
    },
  };
}

/** The private key of a keyfile's JSON; a `KeyfileError` when it is corrupt or the passphrase is wrong. */
export async function decryptKey(json: unknown, passphrase: string): Promise<Uint8Array> {
  const file = parseKeyfile(json);
  const derived = await deriveKey(passphrase, file.salt, file.kdfparams);
  if (!equalBytes(macOf(derived, file.ciphertext), file.mac)) {
    throw new KeyfileError({code: KeyfileErrorCode.WRONG_PASSPHRASE}, "wrong passphrase");
  }
  const privateKey = aes128Ctr(false, derived.subarray(0, 16), file.iv, file.ciphertext);
  if (file.address && !equalBytes(publicKeyToAddress(publicKeyOf(privateKey)), file.address)) {
    throw new KeyfileError(
      {code: KeyfileErrorCode.CORRUPT, reason: "address"},
      "corrupt keyfile: the key is not the address's",
    );
  }
  return privateKey;
}

/** The checked fields of a keyfile, hex decoded. */
interface ParsedKeyfile {
  /** The address the file names, when it names one. */
  address: Uint8Array | undefined;
  kdfparams: ScryptParams;
  salt: Uint8Array;
  iv: Uint8Array;
  ciphertext: Uint8Array;
  mac: Uint8Array;
}

function parseKeyfile(json: unknown): ParsedKeyfile {
  const corrupt = (reason: string) =>
    new KeyfileError({code: KeyfileErrorCode.CORRUPT, reason}, `corrupt keyfile: ${reason}`);
  // ethers writes `Crypto`, as some old wallets did.
  const file = json as {version?: unknown; crypto?: Record<string, unknown>; Crypto?: Record<string, unknown>};
  if (typeof json !== "object" || json === null || file.version !== 3) throw corrupt("not a version 3 keyfile");
  const crypto = file.crypto ?? file.Crypto;
  if (typeof crypto !== "object" || crypto === null) throw corrupt("no crypto section");
  if (crypto.cipher !== "aes-128-ctr") throw corrupt(`cipher ${String(crypto.cipher)} is not aes-128-ctr`);
  if (crypto.kdf !== "scrypt") throw corrupt(`kdf ${String(crypto.kdf)} is not scrypt`);
  const kdf = (crypto.kdfparams ?? {}) as Record<string, unknown>;
  const {n, r, p, dklen} = kdf;
  if (!isPositiveInteger(n) || (n & (n - 1)) !== 0 || n < 2) throw corrupt("kdfparams.n is not a power of two");
  if (!isPositiveInteger(r) || !isPositiveInteger(p)) throw corrupt("kdfparams.r and p must be positive integers");
  if (dklen !== 32) throw corrupt("kdfparams.dklen is not 32");
  if (scryptMemory({n, r, p}) > MAX_SCRYPT_MEMORY) throw corrupt(`scrypt n=${n} r=${r} p=${p} needs more than 1 GiB`);
  const hex = (value: unknown, name: string, length?: number) => {
    const bytes = typeof value === "string" ? hexToBytesOrNull(value.startsWith("0x") ? value.slice(2) : value) : null;
    if (!bytes || (length !== undefined && bytes.length !== length))
      throw corrupt(`${name} is not ${length ?? "some"} bytes of hex`);
    return bytes;
  };
  const address = (json as {address?: unknown}).address;
  return {
    address: address === undefined ? undefined : hex(address, "address", 20),
    kdfparams: {n, r, p},
    salt: hex(kdf.salt, "kdfparams.salt"),
    iv: hex((crypto.cipherparams as {iv?: unknown} | undefined)?.iv, "cipherparams.iv", 16),
    ciphertext: hex(crypto.ciphertext, "ciphertext", 32),
    mac: hex(crypto.mac, "mac", 32),
  };
}

/**
 * OpenSSL's scrypt on a thread of libuv's pool (node:crypto): the event loop keeps turning and the
 * 256 MiB it takes are native memory, given back when it ends (docs/protocol/keystore.md §5).
 * `maxmem` is exactly what the parameters need, which `parseKeyfile` bounds.
 */
function deriveKey(passphrase: string, salt: Uint8Array, params: ScryptParams): Promise<Uint8Array> {
  const {n, r, p} = params;
  return new Promise((resolve, reject) =>
    scrypt(utf8ToBytes(passphrase), salt, 32, {N: n, r, p, maxmem: scryptMemory(params)}, (error, key) =>
      error ? reject(error) : resolve(new Uint8Array(key.buffer, key.byteOffset, key.length)),
    ),
  );
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0;
}

/** keccak-256(derived key's second half ‖ ciphertext). */
function macOf(derived: Uint8Array, ciphertext: Uint8Array): Uint8Array {
  return keccak256(concatBytes(derived.subarray(16, 32), ciphertext));
}

/** AES-128-CTR from node:crypto (OpenSSL); encryption and decryption are the same stream. */
function aes128Ctr(encrypt: boolean, key: Uint8Array, iv: Uint8Array, input: Uint8Array): Uint8Array {
  const cipher = encrypt ? createCipheriv("aes-128-ctr", key, iv) : createDecipheriv("aes-128-ctr", key, iv);
  return new Uint8Array(Buffer.concat([cipher.update(input), cipher.final()]));
}
