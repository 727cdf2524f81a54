/** The test contract: storage, two events, reverts with and without a reason, a gas burner, a payable function. */
import {type CompiledContract, compileSolidity} from "@xchain/test-utils";
import {bigIntToFixedBytes, concatBytes, keccak256, utf8ToBytes} from "@xchain/utils";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract Probe {
  uint256 public value;
  event Stored(address indexed by, uint256 indexed value, bytes32 tag);
  event Pinged(uint256 n);
  function store(uint256 v, bytes32 tag) external {
    value = v;
    emit Stored(msg.sender, v, tag);
  }
  function ping(uint256 n) external {
    emit Pinged(n);
  }
  function fail() external pure {
    revert("nope");
  }
  function failBare() external pure {
    revert();
  }
  function burn(uint256 n) external {
    for (uint256 i = 0; i < n; i++) value += i;
  }
  function pay() external payable {}
}`;

let compiled: CompiledContract | undefined;

/** The compiled Probe (once per test file). */
export function probe(): CompiledContract {
  compiled ??= compileSolidity(SOURCE).Probe as CompiledContract;
  return compiled;
}

/** topic0 of `Stored(address,uint256,bytes32)`. */
export const STORED_TOPIC = keccak256(utf8ToBytes("Stored(address,uint256,bytes32)"));
/** topic0 of `Pinged(uint256)`. */
export const PINGED_TOPIC = keccak256(utf8ToBytes("Pinged(uint256)"));

const word = (value: bigint) => bigIntToFixedBytes(value, 32);
const selector = (signature: string) => probe().selectors[signature] as Uint8Array;

/** Calldata of the Probe's functions. */
export const probeCall = {
  store: (value: bigint, tag: bigint) => concatBytes(selector("store(uint256,bytes32)"), word(value), word(tag)),
  ping: (n: bigint) => concatBytes(selector("ping(uint256)"), word(n)),
  fail: () => selector("fail()"),
  failBare: () => selector("failBare()"),
  burn: (n: bigint) => concatBytes(selector("burn(uint256)"), word(n)),
  pay: () => selector("pay()"),
  value: () => selector("value()"),
};

/** A 32-byte topic holding `value` (an indexed uint256, or an address left-padded). */
export function topic(value: bigint | Uint8Array): Uint8Array {
  return typeof value === "bigint" ? word(value) : concatBytes(new Uint8Array(12), value);
}
