/**
 * HDWalletUtils' extended public keys and paths (`co/rsk/pcc/bto/DeriveExtendedPublicKey.java`,
 * `HDWalletUtilsHelper.java`; docs/protocol/native-contracts.md §5), on @scure/bip32: the network comes from the
 * prefix (`xpub` Bitcoin mainnet, `tpub` testnet), a path is up to 10 non-hardened levels written as plain
 * decimal numbers, as rskj checks them with Java's `Integer.parseInt`.
 */
import {HDKey} from "@scure/bip32";
import {refuse} from "../dispatch/nativeMethods.ts";

export const NAME = "HDWalletUtils";
const MAX_LEVELS = 10;
/** bitcoinj's BIP-32 version bytes of Bitcoin mainnet and testnet. */
const MAINNET = {public: 0x0488b21e, private: 0x0488ade4};
const TESTNET = {public: 0x043587cf, private: 0x04358394};
const MAX_INT = 2 ** 31 - 1;

/** rskj's error text quotes a key trimmed to 64 characters and "...". */
function quoted(key: string): string {
  const trimmed = key.trim();
  return trimmed.length > 64 ? `${trimmed.slice(0, 64)}...` : trimmed;
}

/** The extended key `xpub` of the network its prefix names; fails for another prefix or a key that does not decode. */
export function parseExtendedKey(method: string, xpub: string): HDKey {
  const versions = xpub.startsWith("xpub") ? MAINNET : xpub.startsWith("tpub") ? TESTNET : undefined;
  if (versions === undefined) refuse(NAME, method, `Invalid extended public key '${quoted(xpub)}'`);
  try {
    const key = HDKey.fromExtendedKey(xpub, versions);
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
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const value = Number(BigInt(s));
  if (!Number.isSafeInteger(value) || value > MAX_INT || value < -MAX_INT - 1) return undefined;
  return value >= 0 ? value : undefined;
}

/** The child numbers of `path`: 1–10 non-hardened levels, no `m/`, rskj's checks in rskj's order. */
export function parsePath(method: string, path: string): number[] {
  const invalid = (): never => refuse(NAME, method, `Invalid path '${path.trim()}'`);
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
