/**
 * Replacing a file so that a crash leaves either the old content or the new one, never a part:
 * the bytes go to a temporary file in the same directory, are flushed to disk, and the temporary
 * file is renamed over `path` (a rename within one file system is atomic).
 */
import {randomBytes} from "node:crypto";
import {chmod, open, rename, rm} from "node:fs/promises";

/** Writes `bytes` to `path` atomically, with `mode` (default 0600: readable by the owner only). */
export async function writeFileAtomically(path: string, bytes: Uint8Array, mode = 0o600): Promise<void> {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    const file = await open(temp, "wx", mode);
    try {
      await file.writeFile(bytes);
      await file.sync();
    } finally {
      await file.close();
    }
    // The mode given to open() is masked by the umask.
    await chmod(temp, mode);
    await rename(temp, path);
  } catch (e) {
    await rm(temp, {force: true});
    throw e;
  }
}
