/**
 * The secp256k1 arithmetic precompiles of RSKIP-516 (docs/protocol/native-contracts.md §12): point addition at
 * 0x…01000016 (150 gas) and scalar multiplication at 0x…01000017 (3,000 gas), rskj's `Secp256k1Addition` and
 * `Secp256k1Multiplication` over `Secp256k1ServiceBC`. Words are read as rskj's `ByteUtil.parseWord` reads
 * them: 32 bytes at 32 × i, zero-padded past the input's end. (0, 0) is the point at infinity; any other pair
 * must be a point of the curve with both coordinates below the field's prime, or the call fails (a
 * VMException: only the price is charged). The answer is the affine x and y as two words, 64 zero bytes for
 * the point at infinity. A multiplication reduces its scalar modulo the group order, as BouncyCastle does.
 */
import {secp256k1} from "@noble/curves/secp256k1.js";
import {bigIntToFixedBytes, bytesToBigInt, concatBytes} from "@xchain/utils";
import {NativeContractFailure, NativeContractFailureCode} from "../../errors.ts";
import {precompiledAddress} from "../../precompiles/addresses.ts";
import type {NativeContract} from "../dispatch/types.ts";

type Point = InstanceType<typeof secp256k1.Point>;
const {Point} = secp256k1;
const FIELD_PRIME = Point.CURVE().p;
const GROUP_ORDER = Point.CURVE().n;

/** Word `index` of `data`: 32 bytes, zero-padded past its end (rskj's `ByteUtil.parseWord`). */
function word(data: Uint8Array, index: number): bigint {
  const out = new Uint8Array(32);
  const start = 32 * index;
  if (start < data.length) out.set(data.subarray(start, start + 32));
  return bytesToBigInt(out);
}

/** The point (x, y), or undefined when it is neither the point at infinity (0, 0) nor on the curve. */
function pointOf(x: bigint, y: bigint): Point | undefined {
  if (x === 0n && y === 0n) return Point.ZERO;
  if (x >= FIELD_PRIME || y >= FIELD_PRIME) return undefined;
  try {
    const point = Point.fromAffine({x, y});
    point.assertValidity();
    return point;
  } catch {
    return undefined;
  }
}

/** rskj's output: x and y as two 32-byte words, or 64 zero bytes for the point at infinity. */
function encode(point: Point): Uint8Array {
  if (point.is0()) return new Uint8Array(64);
  const {x, y} = point.toAffine();
  return concatBytes(bigIntToFixedBytes(x, 32), bigIntToFixedBytes(y, 32));
}

function invalidPoint(contract: string, message: string): NativeContractFailure {
  return new NativeContractFailure({code: NativeContractFailureCode.ILLEGAL_ARGUMENT, contract}, message);
}

function secp256k1Contract(
  name: string,
  low: number,
  price: bigint,
  operate: (data: Uint8Array) => Point,
): NativeContract {
  return {
    name,
    address: precompiledAddress(low),
    isActive: (chainspec, blockNumber) => chainspec.isActive("RSKIP516", blockNumber),
    // Stateless: it runs on a fork as anywhere (docs/forking.md §6).
    runsOnFork: true,
    gas: () => price,
    run: (data) => ({output: encode(operate(data))}),
  };
}

/** Secp256k1Addition: (x1, y1) + (x2, y2). */
export const secp256k1Addition: NativeContract = secp256k1Contract("Secp256k1Addition", 0x01000016, 150n, (data) => {
  const first = pointOf(word(data, 0), word(data, 1));
  if (!first) throw invalidPoint("Secp256k1Addition", "Invalid point coordinates for first point in add operation");
  const second = pointOf(word(data, 2), word(data, 3));
  if (!second) throw invalidPoint("Secp256k1Addition", "Invalid point coordinates for second point in add operation");
  return first.add(second);
});

/** Secp256k1Multiplication: s × (x, y), s taken modulo the group order. */
export const secp256k1Multiplication: NativeContract = secp256k1Contract(
  "Secp256k1Multiplication",
  0x01000017,
  3_000n,
  (data) => {
    const point = pointOf(word(data, 0), word(data, 1));
    if (!point) throw invalidPoint("Secp256k1Multiplication", "Invalid point coordinates for mul operation");
    const scalar = word(data, 2) % GROUP_ORDER;
    return scalar === 0n ? Point.ZERO : point.multiplyUnsafe(scalar);
  },
);
