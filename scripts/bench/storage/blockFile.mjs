// A chain too long for one string (200,000 blocks of hex pass V8's ~512 MB string limit): block
// encodings, oldest first, each as a 4-byte big-endian length and the raw bytes, written and read
// as streams so that neither side holds the chain in memory.
import {closeSync, openSync, readSync, writeSync} from "node:fs";

/** Appends blocks to a new file at `path`; `close()` when done. */
export function blockWriter(path) {
  const fd = openSync(path, "w");
  const length = new Uint8Array(4);
  return {
    write(bytes) {
      new DataView(length.buffer).setUint32(0, bytes.length);
      writeSync(fd, length);
      writeSync(fd, bytes);
    },
    close: () => closeSync(fd),
  };
}

/** The blocks of the file at `path` (written by blockWriter), oldest first. */
export function* readBlocks(path) {
  const fd = openSync(path, "r");
  const chunk = Buffer.allocUnsafe(1 << 22);
  let buffered = Buffer.alloc(0);
  try {
    for (;;) {
      while (buffered.length >= 4 && buffered.length >= 4 + buffered.readUInt32BE(0)) {
        const end = 4 + buffered.readUInt32BE(0);
        yield Uint8Array.prototype.slice.call(buffered, 4, end);
        buffered = buffered.subarray(end);
      }
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      buffered = Buffer.concat([buffered, chunk.subarray(0, read)]);
    }
    if (buffered.length > 0) throw new Error(`${path}: ${buffered.length} bytes of a truncated block at the end`);
  } finally {
    closeSync(fd);
  }
}
