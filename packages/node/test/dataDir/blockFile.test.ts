// The block file of `xchain db export`/`import` (docs/operations.md §5): split at RLP list boundaries
// however the bytes arrive, written and read back whole (gzip too), and every damage a precise
// BAD_BLOCK_FILE naming where, never a crash or an endless wait.
import {mkdtempSync, readFileSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {gzipSync} from "node:zlib";
import {encodeRlp} from "@xchain/primitives";
import {describe, expect, it} from "vitest";
import {fileBytes, MAX_BLOCK_BYTES, readBlocks, writeBlockFile} from "../../src/dataDir/blockFile.ts";
import {DbToolError, DbToolErrorCode} from "../../src/errors.ts";

/** Three "blocks": a short list, one whose length needs a long prefix, and one of 70,000 bytes. */
const blocks = [
  encodeRlp([Uint8Array.of(1), [], []]),
  encodeRlp([new Uint8Array(100).fill(7), [Uint8Array.of(2)], []]),
  encodeRlp([new Uint8Array(70_000).fill(9), [], []]),
];
const file = Buffer.concat(blocks);

async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function readAll(chunks: AsyncIterable<Uint8Array>, name = "f.rlp") {
  const read = [];
  for await (const block of readBlocks(chunks, name)) read.push(block);
  return read;
}

async function failure(chunks: AsyncIterable<Uint8Array>, name = "f.rlp"): Promise<DbToolError> {
  const error = await readAll(chunks, name).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DbToolError);
  expect((error as DbToolError).type.code).toBe(DbToolErrorCode.BAD_BLOCK_FILE);
  return error as DbToolError;
}

describe("reading a block file", () => {
  it.each([1, 7, 65_536])("splits the blocks at their boundaries, in chunks of %i bytes", async (size) => {
    const read = await readAll(chunked(file, size));
    expect(read.map((b) => b.bytes)).toEqual(blocks);
    expect(read.map((b) => [b.index, b.offset])).toEqual([
      [1, 0],
      [2, blocks[0]!.length],
      [3, blocks[0]!.length + blocks[1]!.length],
    ]);
  });

  it("names a file truncated inside a block, or inside a block's length prefix", async () => {
    const cut = await failure(chunked(file.subarray(0, file.length - 10), 1000));
    const third = blocks[0]!.length + blocks[1]!.length;
    expect(cut.message).toBe(
      `f.rlp ends inside its block 3 (at byte ${third}, ${blocks[2]!.length - 10} of its ${blocks[2]!.length} bytes present): ` +
        "the file is truncated; the 2 block(s) before it were read",
    );
    const inPrefix = await failure(chunked(file.subarray(0, third + 2), 1000));
    expect(inPrefix.message).toMatch(/^f\.rlp ends inside its block 3 \(at byte \d+, 2 bytes present\)/);
  });

  it("refuses bytes that cannot start a block, a gzip file not named .gz, and an absurd length", async () => {
    const garbage = await failure(chunked(Buffer.concat([blocks[0]!, Buffer.from("garbage")]), 4));
    expect(garbage.message).toBe(
      `f.rlp: the byte at offset ${blocks[0]!.length} (0x67) cannot start its block 2 (an RLP list): not a block file, or damaged there`,
    );
    const gzip = await failure(chunked(gzipSync(file), 100), "-");
    expect(gzip.message).toContain("stdin: the byte at offset 0 (0x1f) cannot start its block 1");
    expect(gzip.message).toContain("(it is gzip-compressed: name it *.gz)");
    const huge = await failure(chunked(Uint8Array.of(0xfb, 0x7f, 0xff, 0xff, 0xff), 5));
    expect(huge.message).toContain(`claims 2147483647 bytes, more than a block can hold (${MAX_BLOCK_BYTES})`);
  });

  it("writes and reads back a file, and a .gz file; a damaged .gz file is named", async () => {
    const dir = mkdtempSync(join(tmpdir(), "xchain-blockfile-"));
    async function* source() {
      yield* blocks;
    }
    for (const name of ["chain.rlp", "chain.rlp.gz"]) {
      const path = join(dir, name);
      await writeBlockFile(path, source());
      expect((await readAll(fileBytes(path), path)).map((b) => b.bytes)).toEqual(blocks);
    }
    expect(readFileSync(join(dir, "chain.rlp"))).toEqual(file);
    const gz = readFileSync(join(dir, "chain.rlp.gz"));
    writeFileSync(join(dir, "cut.rlp.gz"), gz.subarray(0, gz.length - 20));
    const cut = await failure(fileBytes(join(dir, "cut.rlp.gz")));
    expect(cut.message).toMatch(/cannot read .*cut\.rlp\.gz: its gzip stream is damaged or truncated/);
    const missing = await failure(fileBytes(join(dir, "none.rlp")));
    expect(missing.message).toMatch(/^cannot read .*none\.rlp: ENOENT/);
  });
});
