/**
 * Why a `Keystore` (deps.ts) refuses, as the codes of its errors: the keystore behind the contract
 * (the node's) throws `NodeError`s carrying them, and errorMapping answers each -32000 with its
 * message (docs/protocol/keystore.md). A busy keystore has its own error (keystoreBusy.ts).
 */

/** Each reason the keystore refuses an account operation. */
export enum KeystoreErrorCode {
  /** The account is not unlocked (personal_dumpRawKey). */
  LOCKED = "KEYSTORE_LOCKED",
  /** personal_dumpRawKey while `wallet.allowDumpRawKey` is off. */
  DUMP_REFUSED = "KEYSTORE_DUMP_REFUSED",
}

/** Each reason a keyfile does not give its key. */
export enum KeyfileErrorCode {
  /** Not a version-3 scrypt/aes-128-ctr keyfile, or a field is missing or malformed. */
  CORRUPT = "KEYFILE_CORRUPT",
  /** The MAC does not match: a wrong passphrase (or a tampered ciphertext). */
  WRONG_PASSPHRASE = "KEYFILE_WRONG_PASSPHRASE",
}
