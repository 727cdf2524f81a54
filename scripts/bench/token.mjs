// The minimal ERC-20-style token the benchmarks deploy (balanceOf, transfer, Transfer event),
// compiled with solc-js by each benchmark; a Solidity source file of one or more contracts.
export const SOLIDITY_HEADER = `// SPDX-License-Identifier: MIT\npragma solidity 0.8.37;\n`;

/** The token contract's source (append it to SOLIDITY_HEADER, with any other contracts). */
export const TOKEN_CONTRACT = `contract Token {
    mapping(address => uint256) public balanceOf;
    event Transfer(address indexed from, address indexed to, uint256 value);
    constructor() { balanceOf[msg.sender] = 1e30; }
    function transfer(address to, uint256 value) external returns (bool) {
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
        return true;
    }
}`;
