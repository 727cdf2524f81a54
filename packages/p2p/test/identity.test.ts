/** The node key in `<dataDir>/p2p.key`: created once, kept across restarts, never silently replaced. */
import {mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {generateKeyPair, privateKeyToProtobuf} from "@libp2p/crypto/keys";
import {afterEach, describe, expect, it} from "vitest";
import {P2PError, P2PErrorCode} from "../src/errors.ts";
import {IDENTITY_FILE, loadOrCreateIdentity, peerIdOf} from "../src/identity.ts";

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "xchain-p2p-"));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true});
});

async function expectInvalidIdentity(dataDir: string): Promise<void> {
  const error = await loadOrCreateIdentity(dataDir).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(P2PError);
  expect((error as P2PError).code).toBe(P2PErrorCode.INVALID_IDENTITY);
}

describe("node identity", () => {
  it("creates a secp256k1 key with mode 0600 (in a new directory) and loads the same key again", async () => {
    const dataDir = join(tempDir(), "nested", "data");
    const key = await loadOrCreateIdentity(dataDir);
    expect(key.type).toBe("secp256k1");
    const path = join(dataDir, IDENTITY_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dataDir)).toEqual([IDENTITY_FILE]);
    const again = await loadOrCreateIdentity(dataDir);
    expect(peerIdOf(again)).toBe(peerIdOf(key));
    expect(peerIdOf(key)).toMatch(/^16U/);
  });

  it("loads an Ed25519 key written by someone else", async () => {
    const dataDir = tempDir();
    const key = await generateKeyPair("Ed25519");
    writeFileSync(join(dataDir, IDENTITY_FILE), privateKeyToProtobuf(key));
    expect(peerIdOf(await loadOrCreateIdentity(dataDir))).toBe(peerIdOf(key));
  });

  it("refuses a corrupt, empty or oversized file and leaves it as it was", async () => {
    const dataDir = tempDir();
    const path = join(dataDir, IDENTITY_FILE);
    for (const content of [Uint8Array.of(8, 2, 18, 3, 1, 2), new Uint8Array(0), new Uint8Array(5000).fill(1)]) {
      writeFileSync(path, content);
      await expectInvalidIdentity(dataDir);
      expect(Uint8Array.from(readFileSync(path))).toEqual(content);
    }
    const rsaLike = Uint8Array.of(8, 0, 18, 1, 0); // key type 0 (RSA) with a broken key
    writeFileSync(path, rsaLike);
    await expectInvalidIdentity(dataDir);
  });
});
