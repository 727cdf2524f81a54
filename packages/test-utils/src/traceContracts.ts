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

/**
 * The revert-reason tracing tests' contracts: `Outer.run(inner, x)` makes two sub-calls that revert
 * and are caught (a Panic(0x11) overflow, a custom error), then one whose `require` reason, when
 * x >= Inner's `limit` (slot 0, 10), bubbles up and reverts the whole call; `Inner.spin` loops until
 * out of gas; `Outer.when` returns the block number and timestamp.
 */
export const REVERT_REASONS_SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
error Custom(uint256 n);
contract Inner {
  uint256 public limit = 10;
  function check(uint256 x) external view returns (uint256) { require(x < limit, "inner: too big"); return x; }
  function overflow(uint256 x) external pure returns (uint256) { return x + type(uint256).max; }
  function custom() external pure { revert Custom(7); }
  function spin() external pure { uint256 i; while (true) { i++; } }
}
contract Outer {
  function run(address inner, uint256 x) external returns (uint256) {
    (bool ok, ) = inner.call(abi.encodeWithSignature("overflow(uint256)", 1));
    (ok, ) = inner.call(abi.encodeWithSignature("custom()"));
    return Inner(inner).check(x);
  }
  function when() external view returns (uint256, uint256) { return (block.number, block.timestamp); }
}
`;
