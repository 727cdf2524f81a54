/** Just enough ABI encoding for the tests: a selector and static 32-byte words. */
import {bigIntToBytes, setLengthLeft} from "@ethereumjs/util";
import {bytesToBigInt, concatBytes} from "@xchain/utils";

/** A 32-byte word of an unsigned integer or an address. */
export function word(value: bigint | Uint8Array): Uint8Array {
  return setLengthLeft(typeof value === "bigint" ? bigIntToBytes(value) : value, 32);
}

/** selector ‖ words. */
export function calldata(selector: Uint8Array, ...args: (bigint | Uint8Array)[]): Uint8Array {
  return concatBytes(selector, ...args.map(word));
}

/** The i-th 32-byte word of return data as a number. */
export function wordAt(data: Uint8Array, i: number): bigint {
  return bytesToBigInt(data.subarray(32 * i, 32 * i + 32));
}
