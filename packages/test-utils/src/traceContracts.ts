/**
 * The callee of the tracing tests and of the anvil cross-check (Solidity source, to be completed
 * with a caller contract): a state change with a return value, a revert with a reason, an endless
 * loop for out-of-gas sub-calls, and a self-destruct.
 */
export const TRACE_CHILD_SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract Child {
  uint256 public count;
  function ping(uint256 x) external returns (uint256) { count += 1; return x + 1; }
  function fail() external pure { revert("no"); }
  function burn() external { while (true) { count += 1; } }
  function bye(address payable to) external { selfdestruct(to); }
}
`;
