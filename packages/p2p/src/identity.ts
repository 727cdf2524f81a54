/**
 * The node's libp2p identity: a secp256k1 private key kept as protobuf bytes in
 * `<dataDir>/p2p.key` (mode 0600). The file is created once, written atomically (a temporary file
 * in the same directory, then a rename), and never replaced: a file that does not hold a key is an
 * error for the operator to look at, because a new key would be a new peer id.
 */
import {readFile} from "node:fs/promises";
import {join} from "node:path";
import {generateKeyPair, privateKeyFromProtobuf, privateKeyToProtobuf} from "@libp2p/crypto/keys";
import type {PrivateKey} from "@libp2p/interface";
import {peerIdFromPrivateKey} from "@libp2p/peer-id";
import {makeDirectory, writeFileAtomically} from "@xchain/utils";
import {P2PError, P2PErrorCode} from "./errors.ts";

/** Name of the key file inside the data directory. */
export const IDENTITY_FILE = "p2p.key";

// A protobuf secp256k1 or Ed25519 key is under 100 bytes; anything much larger is not a key.
const MAX_KEY_FILE_BYTES = 4096;

/**
 * Loads the key in `<dataDir>/p2p.key`, or creates one (and the directory) when the file does not
 * exist. Throws `P2PError` INVALID_IDENTITY when the file exists but does not hold a secp256k1 or
 * Ed25519 key; I/O failures (permissions) are thrown as they are.
 */
export async function loadOrCreateIdentity(dataDir: string): Promise<PrivateKey> {
  const path = join(dataDir, IDENTITY_FILE);
  const existing = await readKeyFile(path);
  if (existing !== undefined) return parseKey(existing, path);
  await makeDirectory(dataDir);
  const key = await generateKeyPair("secp256k1");
  await writeFileAtomically(path, privateKeyToProtobuf(key));
  return key;
}

/** The peer id of a key, in its string form (what `PeerInfo.id` and `/p2p/…` carry). */
export function peerIdOf(key: PrivateKey): string {
  return peerIdFromPrivateKey(key).toString();
}

async function readKeyFile(path: string): Promise<Uint8Array | undefined> {
  try {
    return await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    if ((e as NodeJS.ErrnoException).code === "EISDIR") throw invalid(path, "it is a directory");
    throw e;
  }
}

function parseKey(bytes: Uint8Array, path: string): PrivateKey {
  if (bytes.length === 0) throw invalid(path, "the file is empty");
  if (bytes.length > MAX_KEY_FILE_BYTES) throw invalid(path, `the file has ${bytes.length} bytes`);
  let key: PrivateKey;
  try {
    key = privateKeyFromProtobuf(bytes);
  } catch (e) {
    throw invalid(path, `not a libp2p private key (${e instanceof Error ? e.message : String(e)})`);
  }
  if (key.type !== "secp256k1" && key.type !== "Ed25519") throw invalid(path, `unsupported key type ${key.type}`);
  return key;
}

function invalid(path: string, reason: string): P2PError {
  return new P2PError({code: P2PErrorCode.INVALID_IDENTITY, path, reason});
}
