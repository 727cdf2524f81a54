/**
 * HDWalletUtils' extended public keys and paths (`co/rsk/pcc/bto/DeriveExtendedPublicKey.java`,
 * `HDWalletUtilsHelper.java`; docs/protocol/native-contracts.md §5), on @scure/bip32: the network comes from the
 * prefix (`xpub` Bitcoin mainnet, `tpub` testnet), a path is up to 10 non-hardened levels written as plain
 * decimal numbers, as rskj checks them with Java's `Integer.parseInt`.
 */
import {createBase58check} from "@scure/base";
import {HDKey} from "@scure/bip32";
import {sha256} from "@xchain/utils";
import {refuse} from "../dispatch/nativeMethods.ts";

export const NAME = "HDWalletUtils";
const MAX_LEVELS = 10;
/** bitcoinj's BIP-32 version bytes of Bitcoin mainnet and testnet. */
const MAINNET = {public: 0x0488b21e, private: 0x0488ade4};
const TESTNET = {public: 0x043587cf, private: 0x04358394};
const MAX_INT = 2 ** 31 - 1;
/** BIP-32 serialization: version (4), depth (1), parent fingerprint (4), child index (4), chain code, key. */
const EXTENDED_KEY_LENGTH = 78;
const DEPTH_OFFSET = 4;

/** Base58Check with Bitcoin's double SHA-256 checksum. */
export const base58check = createBase58check(sha256);

/** rskj's error texts quote a value cut to 66 characters and "..." (`co.rsk.util.StringUtils.trim`). */
function quoted(value: string): string {
  return value.length > 66 ? `${value.slice(0, 66)}...` : value;
}

/**
 * `xpub` with the parent fingerprint and child index of a depth-0 key cleared. bitcoinj's `deserializeB58` takes
 * such a key (a root with a parent) and @scure/bip32 refuses it; neither field reaches an answer (a child's come
 * from its parent's key, and the public key is the same), so clearing them gives bitcoinj's answers. Another
 * key, or one that does not decode, is left for @scure/bip32 to judge.
 */
function asBitcoinjReadsIt(xpub: string): string {
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(xpub);
  } catch {
    return xpub;
  }
  if (bytes.length !== EXTENDED_KEY_LENGTH || bytes[DEPTH_OFFSET] !== 0) return xpub;
  bytes.fill(0, DEPTH_OFFSET + 1, DEPTH_OFFSET + 9);
  return base58check.encode(bytes);
}

/** The extended key `xpub` of the network its prefix names; fails for another prefix or a key that does not decode. */
export function parseExtendedKey(method: string, xpub: string): HDKey {
  const versions = xpub.startsWith("xpub") ? MAINNET : xpub.startsWith("tpub") ? TESTNET : undefined;
  if (versions === undefined) refuse(NAME, method, `Invalid extended public key '${quoted(xpub)}'`);
  try {
    const key = HDKey.fromExtendedKey(asBitcoinjReadsIt(xpub), versions);
    // Decoding checks the checksum and the point; asking for the key's encoding checks it was a key at all.
    if (key.publicKey === null) throw new Error("no public key");
    return key;
  } catch (e) {
    refuse(NAME, method, `Invalid extended public key '${quoted(xpub)}': ${(e as Error).message}`);
  }
}

/**
 * Java's `Integer.parseInt(s) >= 0`: an optional sign, decimal digits, a value within a Java int. (Java also
 * takes non-ASCII decimal digits; they are refused here, docs/protocol/native-contracts.md §5.)
 */
function javaNonNegativeInt(s: string): number | undefined {
  const match = /^([+-]?)0*([0-9]*)$/.exec(s);
  if (!match || !/[0-9]/.test(s)) return undefined;
  // Leading zeros dropped, a Java int has at most 10 digits: a longer level is out of range without parsing it.
  const [, sign, digits = ""] = match;
  if (digits.length > 10) return undefined;
  const value = Number(digits || "0");
  if (value === 0) return 0;
  return sign === "-" || value > MAX_INT ? undefined : value;
}

/** The child numbers of `path`: 1–10 non-hardened levels, no `m/`, rskj's checks in rskj's order. */
export function parsePath(method: string, path: string): number[] {
  const invalid = (): never => refuse(NAME, method, `Invalid path '${quoted(path)}'`);
  if (path.length === 0) return invalid();
  if (javaNonNegativeInt(path.slice(0, 1)) === undefined || javaNonNegativeInt(path.slice(-1)) === undefined) invalid();
  const levels = path.split("/");
  if (levels.length > MAX_LEVELS) refuse(NAME, method, `Path should contain ${MAX_LEVELS} levels at most`);
  return levels.map((level) => javaNonNegativeInt(level) ?? invalid());
}

/** `key` derived along `path` with BIP-32 CKDpub. */
export function deriveAlong(method: string, key: HDKey, path: readonly number[]): HDKey {
  try {
    return path.reduce((k, index) => k.deriveChild(index), key);
  } catch (e) {
    refuse(NAME, method, `derivation failed: ${(e as Error).message}`);
  }
}
