/**
 * API key secrets: 32 random bytes written as 64 lower-case hex digits, stored only as their
 * SHA-256 (docs/gateway.md). A presented key is hashed and looked up in a Map, so that checking it
 * costs the same whatever it is, and the file never holds a usable key.
 */
import {hash, randomBytes} from "node:crypto";

/** A well-formed secret: exactly what `newSecret` writes. */
export const SECRET_PATTERN = /^[0-9a-f]{64}$/;

/** A fresh secret (shown once by `xchain keys add`). */
export function newSecret(): string {
  return randomBytes(32).toString("hex");
}

/** A fresh public key id: 8 hex digits, what logs name a key by. */
export function newKeyId(): string {
  return randomBytes(4).toString("hex");
}

/** The SHA-256 of a secret's text, as 64 hex digits (what the keys file stores). */
export function hashSecret(secret: string): string {
  // The one-shot hash: a third of createHash's cost, paid on every request.
  return hash("sha256", secret, "hex");
}
