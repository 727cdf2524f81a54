/**
 * The block file of `xchain db export` and `xchain db import` (docs/operations.md §5), geth's
 * export format: the blocks' encodings (`[header, transactions, uncles]`, each an RLP list, as
 * `Block.encode` and the p2p protocol have them) one after another, nothing before, between or
 * after them; gzip-compressed when the file's name ends in `.gz`. Reading splits the bytes at the
 * RLP list boundaries only; the blocks themselves are decoded and checked by the chain's import.
 */
import {createReadStream, createWriteStream} from "node:fs";
import {rename, rm} from "node:fs/promises";
import type {Readable, Writable} from "node:stream";
import {pipeline} from "node:stream/promises";
import {createGunzip, createGzip} from "node:zlib";
import {DbToolError, DbToolErrorCode} from "../errors.ts";

/** A block larger than this is taken for garbage (Rootstock's blocks are a few hundred KiB at most). */
export const MAX_BLOCK_BYTES = 32 * 1024 * 1024;

/** One block's bytes and where the file holds them. */
export interface FileBlock {
  /** 1 for the file's first block. */
  index: number;
  /** Its first byte's offset in the (uncompressed) file. */
  offset: number;
  bytes: Uint8Array;
}

/** How a file is named in messages: stdin for `-`. */
export function fileLabel(file: string): string {
  return file === "-" ? "stdin" : file;
}

/** The uncompressed bytes of `file` (`-`: stdin); a read failure ends the iteration with BAD_BLOCK_FILE. */
export async function* fileBytes(file: string): AsyncGenerator<Uint8Array> {
  const source: Readable = file === "-" ? process.stdin : createReadStream(file);
  const stream = file.endsWith(".gz") ? source.pipe(createGunzip()) : source;
  // pipe() does not pass on the source's failure (a file that does not exist): the gunzip stream reports it.
  if (stream !== source) source.on("error", (e) => stream.destroy(e));
  let offset = 0;
  try {
    for await (const chunk of stream) {
      offset += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
  } catch (e) {
    const {code, message} = e as NodeJS.ErrnoException;
    const reason = code?.startsWith("Z_") ? `its gzip stream is damaged or truncated (${message})` : message;
    throw badFile(file, offset, `cannot read ${fileLabel(file)}: ${reason}`, reason);
  }
}

/**
 * Splits `chunks` into block encodings. Throws BAD_BLOCK_FILE for bytes that cannot start a block
 * (not an RLP list, a length beyond `MAX_BLOCK_BYTES`) and for a file that ends inside a block.
 */
export async function* readBlocks(chunks: AsyncIterable<Uint8Array>, file: string): AsyncGenerator<FileBlock> {
  const pending = new ChunkQueue();
  let offset = 0;
  let index = 0;
  for await (const chunk of chunks) {
    pending.push(chunk);
    while (pending.length > 0) {
      const size = listSize(pending.peek(PREFIX_BYTES), file, offset, index + 1);
      if (size === undefined || pending.length < size) break;
      yield {index: ++index, offset, bytes: pending.take(size)};
      offset += size;
    }
  }
  if (pending.length > 0) {
    const size = listSize(pending.peek(PREFIX_BYTES), file, offset, index + 1);
    const of = size === undefined ? "" : ` of its ${size}`;
    throw badFile(
      file,
      offset,
      `${fileLabel(file)} ends inside its block ${index + 1} (at byte ${offset}, ${pending.length}${of} bytes present): ` +
        `the file is truncated; the ${index} block(s) before it were read`,
      "truncated",
    );
  }
}

/** The longest RLP list prefix: a byte, then up to 8 bytes of length. */
const PREFIX_BYTES = 9;

/** Bytes received and not yet taken, kept as the chunks they came in (a block is copied out once). */
class ChunkQueue {
  private chunks: Uint8Array[] = [];
  /** The first chunk not yet wholly taken (chunks before it are dropped at the next push). */
  private first = 0;
  length = 0;

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    if (this.first > 0) {
      this.chunks = this.chunks.slice(this.first);
      this.first = 0;
    }
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  /** A copy of the first `n` bytes (fewer when fewer are held). */
  peek(n: number): Uint8Array {
    const out = new Uint8Array(Math.min(n, this.length));
    let filled = 0;
    for (let i = this.first; filled < out.length; i++) {
      const part = (this.chunks[i] as Uint8Array).subarray(0, out.length - filled);
      out.set(part, filled);
      filled += part.length;
    }
    return out;
  }

  /** The first `n` bytes (n ≤ length), removed: a copy of their own, not a view of a chunk. */
  take(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const chunk = this.chunks[this.first] as Uint8Array;
      const part = chunk.subarray(0, n - filled);
      out.set(part, filled);
      filled += part.length;
      if (part.length === chunk.length) this.first++;
      else this.chunks[this.first] = chunk.subarray(part.length);
    }
    this.length -= n;
    return out;
  }
}

/** The total size of the RLP list `bytes` starts with, or undefined while its length prefix is incomplete. */
function listSize(bytes: Uint8Array, file: string, offset: number, index: number): number | undefined {
  const first = bytes[0] as number;
  if (first < 0xc0) {
    const gzip = offset === 0 && first === 0x1f && bytes[1] === 0x8b ? " (it is gzip-compressed: name it *.gz)" : "";
    throw badFile(
      file,
      offset,
      `${fileLabel(file)}: the byte at offset ${offset} (0x${first.toString(16).padStart(2, "0")}) cannot start ` +
        `its block ${index} (an RLP list): not a block file${gzip}, or damaged there`,
      "not a list",
    );
  }
  if (first <= 0xf7) return 1 + first - 0xc0;
  const lengthBytes = first - 0xf7;
  if (bytes.length < 1 + lengthBytes) return undefined;
  let length = 0;
  for (let i = 1; i <= lengthBytes; i++) length = length * 256 + (bytes[i] as number);
  if (length > MAX_BLOCK_BYTES) {
    throw badFile(
      file,
      offset,
      `${fileLabel(file)}: its block ${index} at offset ${offset} claims ${length} bytes, more than a block can ` +
        `hold (${MAX_BLOCK_BYTES}): not a block file, or damaged there`,
      "too large",
    );
  }
  return 1 + lengthBytes + length;
}

function badFile(file: string, offset: number, message: string, reason: string): DbToolError {
  return new DbToolError({code: DbToolErrorCode.BAD_BLOCK_FILE, file, offset, reason}, message);
}

/**
 * Writes `blocks` to `file` (`-`: stdout; gzip for `*.gz`), with backpressure. A file is written
 * as `FILE.partial` and renamed when complete, so a failed export never leaves a file that looks whole.
 */
export async function writeBlockFile(file: string, blocks: AsyncIterable<Uint8Array>): Promise<void> {
  const partial = `${file}.partial`;
  const sink: Writable = file === "-" ? process.stdout : createWriteStream(partial);
  // stdout is not ended: a process cannot close it.
  const options = {end: file !== "-"};
  try {
    if (file.endsWith(".gz")) await pipeline(blocks, createGzip(), sink, options);
    else await pipeline(blocks, sink, options);
  } catch (e) {
    if (file !== "-") await rm(partial, {force: true});
    throw e;
  }
  if (file !== "-") await rename(partial, file);
}
