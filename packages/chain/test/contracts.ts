/** The test contract: a counter that logs each increment, and a function that always reverts. */
import {type CompiledContract, compileSolidity} from "@xchain/test-utils";
import {bigIntToFixedBytes, concatBytes, keccak256, utf8ToBytes} from "@xchain/utils";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract Emitter {
  uint256 public count;
  event Incremented(address indexed by, uint256 indexed count, bytes32 tag);
  function increment(bytes32 tag) external {
    count += 1;
    emit Incremented(msg.sender, count, tag);
  }
  function fail() external {
    count += 100;
    revert("nope");
  }
}`;

let compiled: CompiledContract | undefined;

/** The compiled Emitter (compiled once per test file). */
export function emitter(): CompiledContract {
  compiled ??= compileSolidity(SOURCE).Emitter as CompiledContract;
  return compiled;
}

/** topic0 of `Incremented(address,uint256,bytes32)`. */
export const INCREMENTED_TOPIC = keccak256(utf8ToBytes("Incremented(address,uint256,bytes32)"));

/** Calldata of `increment(tag)`. */
export function incrementData(tag: bigint): Uint8Array {
  return concatBytes(emitter().selectors["increment(bytes32)"] as Uint8Array, bigIntToFixedBytes(tag, 32));
}

/** Calldata of `fail()`. */
export function failData(): Uint8Array {
  return emitter().selectors["fail()"] as Uint8Array;
}

/** A 32-byte topic holding `value` (an indexed uint256 or a left-padded address). */
export function topic(value: bigint | Uint8Array): Uint8Array {
  return typeof value === "bigint" ? bigIntToFixedBytes(value, 32) : concatBytes(new Uint8Array(12), value);
}
