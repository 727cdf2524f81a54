import {chmodSync, existsSync, mkdtempSync, statSync, symlinkSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {DirectoryError, DirectoryErrorCode, makeDirectory} from "../src/index.ts";

async function refusal(path: string): Promise<DirectoryError> {
  try {
    await makeDirectory(path);
  } catch (e) {
    if (e instanceof DirectoryError) return e;
    throw e;
  }
  throw new Error(`expected ${path} to be refused`);
}

describe("makeDirectory", () => {
  const root = mkdtempSync(join(tmpdir(), "xchain-mkdir-"));

  it("creates the missing parents, with the mode, and accepts an existing directory", async () => {
    const deep = join(root, "a", "b", "c");
    await makeDirectory(deep, 0o700);
    expect(statSync(deep).isDirectory()).toBe(true);
    expect(statSync(join(root, "a")).mode & 0o777).toBe(0o700);
    await makeDirectory(deep);
    await makeDirectory(`${deep}/`);
  });

  it("refuses a file in the path, naming it", async () => {
    writeFileSync(join(root, "file"), "");
    const inside = await refusal(join(root, "file", "node"));
    expect(inside.type).toEqual({
      code: DirectoryErrorCode.NOT_A_DIRECTORY,
      path: join(root, "file", "node"),
      at: join(root, "file"),
    });
    expect((await refusal(join(root, "file"))).message).toBe(`${join(root, "file")} is a file, not a directory`);
  });

  it("refuses a dangling symlink after one attempt", async () => {
    symlinkSync(join(root, "nowhere"), join(root, "dangling"));
    const e = await refusal(join(root, "dangling", "node"));
    expect(e.type.code).toBe(DirectoryErrorCode.UNCREATABLE);
    expect(existsSync(join(root, "nowhere"))).toBe(false);
  });

  // Node's mkdir({recursive: true}) never returns here (ENOENT from /proc, which exists).
  it.runIf(existsSync("/proc/self"))("refuses a path under /proc instead of spinning", async () => {
    const e = await refusal("/proc/nope/node");
    expect(e.type).toMatchObject({code: DirectoryErrorCode.UNCREATABLE, at: "/proc/nope"});
    expect(e.message).toMatch(/^cannot create \/proc\/nope \(for \/proc\/nope\/node\): its parent \/proc exists/);
  });

  // Root writes anywhere, so only another user can see the refusal.
  it.runIf(process.getuid?.() !== 0)("refuses a directory it cannot write in", async () => {
    const locked = join(root, "locked");
    await makeDirectory(locked);
    chmodSync(locked, 0o500);
    expect((await refusal(locked)).type.code).toBe(DirectoryErrorCode.NOT_WRITABLE);
    expect((await refusal(join(locked, "sub"))).type.code).toBe(DirectoryErrorCode.UNCREATABLE);
  });
});
