/**
 * rskj's ABI codec for native contracts (`CallTransaction.Function`, `SolidityType`; docs/protocol/native-contracts.md §2.4),
 * with its quirks kept, since they decide what a contract answers:
 *
 * - every integer decodes as a *signed* 256-bit number, `uint256` included (a top bit set is negative);
 * - arguments decode from the bytes after the selector; a word read past their end is a failure, except
 *   that an integer read from *no* bytes at all (the selector alone) is 0, and a dynamic array then is empty;
 * - offsets and lengths are the low 32 bits of their word, as a Java `int` (negative ones fail);
 * - trailing bytes are ignored;
 * - an empty `bytes`/`string` output is encoded as its length word 0 followed by one word of zeros.
 */
import {bigIntToFixedBytes, bytesToBigInt, concatBytes, keccak256, utf8ToBytes} from "@xchain/utils";

/** The ABI types native contracts use. */
export type AbiType = string;

/** A decoded argument: integers as bigint, bool, address as its 32-byte word, bytes/bytesN as bytes, string, arrays. */
export type AbiValue = bigint | boolean | string | Uint8Array | AbiValue[];

/** Why the arguments do not decode (rskj's decode exceptions). */
export class AbiDecodeError extends Error {}

const WORD = 32;
const TWO_256 = 1n << 256n;

/** `int` and `uint` are `int256` and `uint256` in a signature. */
function canonical(type: AbiType): AbiType {
  return type.replace(/^(u?int)(?=$|\[)/, "$1256");
}

/** One method's signature: its selector and its input and output types. */
export interface AbiFunction {
  readonly name: string;
  readonly inputs: readonly AbiType[];
  readonly outputs: readonly AbiType[];
  /** keccak256 of `name(canonical inputs)`, first 4 bytes. */
  readonly selector: Uint8Array;
}

/** rskj's `Function.fromSignature(name, inputs, outputs)`. */
export function abiFunction(name: string, inputs: readonly AbiType[], outputs: readonly AbiType[]): AbiFunction {
  const signature = `${name}(${inputs.map(canonical).join(",")})`;
  return {name, inputs, outputs, selector: keccak256(utf8ToBytes(signature)).subarray(0, 4)};
}

function isDynamic(type: AbiType): boolean {
  return type === "bytes" || type === "string" || type.endsWith("[]");
}

/** rskj's fixed size of a type: 32 for every scalar and dynamic type, element size × n for `T[n]`. */
function fixedSize(type: AbiType): number {
  const match = /^(.*)\[(\d+)\]$/.exec(type);
  return match ? fixedSize(match[1] as string) * Number(match[2]) : WORD;
}

/** A Java `int` of a word's low 32 bits (`BigInteger.intValue()`). */
function javaInt(word: bigint): number {
  return Number(BigInt.asIntN(32, word));
}

/** Reads `size` bytes at `from`, failing when the data has fewer (rskj's `safeCopyOfRange`). */
function slice(data: Uint8Array, from: number, size: number): Uint8Array {
  if (from < 0 || size < 0 || data.length < from + size) {
    throw new AbiDecodeError(`${size} bytes at ${from} exceed the ${data.length} bytes of the arguments`);
  }
  return data.subarray(from, from + size);
}

/** rskj's `IntType.decodeInt`: a signed word; no data at all reads 0. */
function decodeInt(data: Uint8Array, offset: number): bigint {
  if (data.length === 0) return 0n;
  return BigInt.asIntN(256, bytesToBigInt(slice(data, offset, WORD)));
}

function decodeValue(type: AbiType, data: Uint8Array, offset: number): AbiValue {
  const array = /^(.*)\[(\d*)\]$/.exec(type);
  if (array) {
    const element = array[1] as AbiType;
    if (array[2] !== "") {
      const size = Number(array[2]);
      return Array.from({length: size}, (_, i) => decodeValue(element, data, offset + i * fixedSize(element)));
    }
    if (data.length === 0) return [];
    const length = javaInt(decodeInt(data, offset));
    const start = offset + WORD;
    // A lower bound (rskj's validateArrayAllegedSize): each element needs at least a byte.
    if (length < 0 || data.length < start + length) throw new AbiDecodeError(`bad array length ${length}`);
    const values: AbiValue[] = [];
    for (let i = 0, at = start; i < length; i++, at += fixedSize(element)) {
      values.push(
        isDynamic(element)
          ? decodeValue(element, data, start + javaInt(decodeInt(data, at)))
          : decodeValue(element, data, at),
      );
    }
    return values;
  }
  if (type === "bytes" || type === "string") {
    const bytes = slice(data, offset + WORD, javaInt(decodeInt(data, offset)));
    return type === "string" ? new TextDecoder().decode(bytes) : bytes.slice();
  }
  if (type === "bool") return javaInt(decodeInt(data, offset)) !== 0;
  // An address is its whole word, as rskj's DataWord of it.
  if (type === "address") return encodeInt(decodeInt(data, offset));
  if (/^bytes\d+$/.test(type)) return slice(data, offset, WORD).slice();
  if (/^u?int\d*$/.test(type)) return decodeInt(data, offset);
  throw new Error(`unsupported ABI type ${type}`);
}

/** rskj's `Function.decode(data)`: the arguments after the 4-byte selector; throws `AbiDecodeError`. */
export function decodeArguments(fn: AbiFunction, data: Uint8Array): AbiValue[] {
  const args = data.subarray(4);
  let offset = 0;
  return fn.inputs.map((type) => {
    const value = isDynamic(type)
      ? decodeValue(type, args, javaInt(decodeInt(args, offset)))
      : decodeValue(type, args, offset);
    offset += fixedSize(type);
    return value;
  });
}

/** A signed (two's complement) 32-byte word. */
function encodeInt(value: bigint): Uint8Array {
  return bigIntToFixedBytes(((value % TWO_256) + TWO_256) % TWO_256, WORD);
}

/** `bytes` with rskj's padding: ((len − 1) / 32 + 1) words in Java integer division, so one word when empty. */
function encodeBytes(bytes: Uint8Array): Uint8Array {
  const words = Math.trunc((bytes.length - 1) / WORD) + 1;
  const padded = new Uint8Array(words * WORD);
  padded.set(bytes);
  return concatBytes(encodeInt(BigInt(bytes.length)), padded);
}

function encodeValue(type: AbiType, value: AbiValue): Uint8Array {
  const array = /^(.*)\[(\d*)\]$/.exec(type);
  if (array) {
    const element = array[1] as AbiType;
    const values = value as AbiValue[];
    if (array[2] !== "") return concatBytes(...values.map((v) => encodeValue(element, v)));
    if (!isDynamic(element))
      return concatBytes(encodeInt(BigInt(values.length)), ...values.map((v) => encodeValue(element, v)));
    const encoded = values.map((v) => encodeValue(element, v));
    const heads: Uint8Array[] = [];
    let at = values.length * WORD;
    for (const item of encoded) {
      heads.push(encodeInt(BigInt(at)));
      at += item.length;
    }
    return concatBytes(encodeInt(BigInt(values.length)), ...heads, ...encoded);
  }
  if (type === "bytes") return encodeBytes(value as Uint8Array);
  if (type === "string") return encodeBytes(utf8ToBytes(value as string));
  if (type === "bool") return encodeInt(value ? 1n : 0n);
  if (type === "address" || /^bytes\d+$/.test(type)) {
    const bytes = value as Uint8Array;
    if (bytes.length > WORD) throw new Error(`${type} value of ${bytes.length} bytes`);
    const word = new Uint8Array(WORD);
    word.set(bytes, WORD - bytes.length);
    return word;
  }
  if (/^u?int\d*$/.test(type)) return encodeInt(value as bigint);
  throw new Error(`unsupported ABI type ${type}`);
}

/** rskj's `Function.encodeOutputs(values)`: heads then the dynamic values' tails. */
export function encodeOutputs(fn: AbiFunction, values: readonly AbiValue[]): Uint8Array {
  const heads: Uint8Array[] = [];
  const tails: Uint8Array[] = [];
  let at = fn.outputs.reduce((sum, type) => sum + fixedSize(type), 0);
  fn.outputs.forEach((type, i) => {
    const encoded = encodeValue(type, values[i] as AbiValue);
    if (!isDynamic(type)) {
      heads.push(encoded);
      return;
    }
    heads.push(encodeInt(BigInt(at)));
    tails.push(encoded);
    at += encoded.length;
  });
  return concatBytes(...heads, ...tails);
}
