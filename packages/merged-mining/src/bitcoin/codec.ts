/** Bitcoin wire primitives: a bounds-checked reader and the little-endian and CompactSize writers. */
import {readUint32LE, writeUint32LE} from "@xchain/utils";
import {BitcoinDecodeError, BitcoinDecodeErrorCode} from "./errors.ts";

/** Reads Bitcoin wire fields from a byte array; every read is bounds-checked and returns views, not copies. */
export class ByteReader {
  private offset = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly what: string,
  ) {}

  /** Offset of the next byte to read. */
  get position(): number {
    return this.offset;
  }

  /** Number of bytes not read yet. */
  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  /** The next `length` bytes, as a view into the input. */
  bytesView(length: number): Uint8Array {
    this.need(length);
    const out = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }

  /** A view of input bytes already read, from `start` to the current position. */
  viewSince(start: number): Uint8Array {
    return this.bytes.subarray(start, this.offset);
  }

  /** One byte. */
  u8(): number {
    this.need(1);
    return this.bytes[this.offset++] as number;
  }

  /** Little-endian unsigned 32-bit integer. */
  u32(): number {
    this.need(4);
    const v = readUint32LE(this.bytes, this.offset);
    this.offset += 4;
    return v;
  }

  /** Little-endian unsigned 64-bit integer. */
  u64(): bigint {
    const lo = this.u32();
    const hi = this.u32();
    return (BigInt(hi) << 32n) | BigInt(lo);
  }

  /** A CompactSize integer (1, 3, 5 or 9 bytes; non-minimal forms are accepted, as bitcoinj does). */
  varInt(): bigint {
    const first = this.u8();
    if (first < 0xfd) return BigInt(first);
    if (first === 0xfd) return BigInt(this.u8() | (this.u8() << 8));
    if (first === 0xfe) return BigInt(this.u32());
    return this.u64();
  }

  /** A CompactSize count of items of at least `minItemSize` bytes each, checked against the remaining bytes. */
  count(minItemSize: number, what: string): number {
    const n = this.varInt();
    if (n * BigInt(minItemSize) > BigInt(this.remaining)) {
      throw new BitcoinDecodeError(
        {code: BitcoinDecodeErrorCode.COUNT_TOO_LARGE, what, count: n},
        `${this.what}: ${what} count ${n} exceeds the remaining ${this.remaining} bytes`,
      );
    }
    return Number(n);
  }

  /** A CompactSize length followed by that many bytes (a script or witness item). */
  varBytes(what: string): Uint8Array {
    return this.bytesView(this.count(1, what));
  }

  /** Throws unless every byte was read. */
  end(): void {
    if (this.remaining !== 0) {
      throw new BitcoinDecodeError(
        {code: BitcoinDecodeErrorCode.TRAILING_BYTES, what: this.what, extra: this.remaining},
        `${this.what}: ${this.remaining} bytes after the end`,
      );
    }
  }

  private need(length: number): void {
    if (length > this.remaining) {
      throw new BitcoinDecodeError(
        {code: BitcoinDecodeErrorCode.TRUNCATED, what: this.what, offset: this.offset, needed: length},
        `${this.what}: truncated at byte ${this.offset}, ${length} more needed`,
      );
    }
  }
}

/** Little-endian unsigned 32-bit encoding. */
export function uint32LE(value: number): Uint8Array {
  const out = new Uint8Array(4);
  writeUint32LE(out, 0, value);
  return out;
}

/** Little-endian unsigned 64-bit encoding. */
export function uint64LE(value: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value, true);
  return out;
}

/** Minimal CompactSize encoding of a count or length. */
export function varIntBytes(value: number): Uint8Array {
  if (value < 0xfd) return Uint8Array.of(value);
  if (value <= 0xffff) return Uint8Array.of(0xfd, value & 0xff, value >>> 8);
  if (value <= 0xffffffff) {
    const out = new Uint8Array(5);
    out[0] = 0xfe;
    writeUint32LE(out, 1, value);
    return out;
  }
  const out = new Uint8Array(9);
  out[0] = 0xff;
  out.set(uint64LE(BigInt(value)), 1);
  return out;
}
