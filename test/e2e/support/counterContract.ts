// The Solidity contract the wallet e2e tests deploy: state, an indexed event and a revert with a reason.
import {compileSolidity} from "@xchain/test-utils";
import {bytesToPrefixedHex} from "@xchain/utils";

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Counter {
  event Incremented(address indexed by, uint256 indexed value);
  uint256 public count;
  function increment() external { count += 1; emit Incremented(msg.sender, count); }
  function fail(uint256 x) external pure returns (uint256) { require(x < 10, "too big"); return x; }
}`;

/** The contract's ABI (JSON, which ethers, viem and web3 all read). */
export const COUNTER_ABI = [
  {
    type: "event",
    name: "Incremented",
    anonymous: false,
    inputs: [
      {name: "by", type: "address", indexed: true},
      {name: "value", type: "uint256", indexed: true},
    ],
  },
  {type: "function", name: "count", stateMutability: "view", inputs: [], outputs: [{name: "", type: "uint256"}]},
  {type: "function", name: "increment", stateMutability: "nonpayable", inputs: [], outputs: []},
  {
    type: "function",
    name: "fail",
    stateMutability: "pure",
    inputs: [{name: "x", type: "uint256"}],
    outputs: [{name: "", type: "uint256"}],
  },
] as const;

let bytecode: `0x${string}` | undefined;

/** The creation code, 0x-prefixed (compiled once per test process with solc-js). */
export function counterBytecode(): `0x${string}` {
  bytecode ??= bytesToPrefixedHex(compileSolidity(SOURCE).Counter!.bytecode) as `0x${string}`;
  return bytecode;
}
