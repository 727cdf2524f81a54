// The Solidity contract the revert e2e tests call: a require with a reason, a custom error with
// arguments, two panics (an assert, an overflow), a bare revert, and a write that succeeds.
import {compileSolidity} from "@xchain/test-utils";
import {bytesToPrefixedHex} from "@xchain/utils";

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
error Insufficient(address account, uint256 needed);
contract Reverter {
  uint256 public total;
  function requireSmall(uint256 x) external pure returns (uint256) { require(x < 10, "too big"); return x; }
  function custom(uint256 needed) external view returns (uint256) { revert Insufficient(msg.sender, needed); }
  function overflow(uint256 x) external pure returns (uint256) { return x + type(uint256).max; }
  function assertZero(uint256 x) external pure returns (uint256) { assert(x == 0); return x; }
  function bare() external pure { revert(); }
  function add(uint256 x) external { require(x < 100, "add: too much"); total += x; }
}`;

/** The compiled contract: ABI and creation code (compiled once per test process with solc-js). */
export interface RevertContract {
  abi: readonly Record<string, unknown>[];
  bytecode: `0x${string}`;
}

let compiled: RevertContract | undefined;

/** The `Reverter` contract. */
export function revertContract(): RevertContract {
  if (!compiled) {
    const {abi, bytecode} = compileSolidity(SOURCE).Reverter!;
    compiled = {abi, bytecode: bytesToPrefixedHex(bytecode) as `0x${string}`};
  }
  return compiled;
}
