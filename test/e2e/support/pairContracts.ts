// Contracts for the fork replay tests (test/e2e/fork/replay.test.ts): a minimal ERC-20 (transfer, approve,
// transferFrom), a minimal Uniswap-V2-like constant-product pair (mint, swap with the 0.3% fee and the k
// check, getReserves, Sync and Swap events), a router that swaps in one transaction (transferFrom into the
// pair, then swap; the amount out from the reserves) and a small contract to deploy. Written for the tests,
// not Uniswap's code. Nothing reads the block's timestamp, coinbase or difficulty: a transaction replayed
// on a fork, in another block, writes the same storage as it did upstream.
import {compileSolidity} from "@xchain/test-utils";

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

contract Token {
    mapping(address => uint256) public balanceOf;                      // slot 0
    mapping(address => mapping(address => uint256)) public allowance;  // slot 1
    uint256 public totalSupply;                                        // slot 2
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(uint256 supply) {
        balanceOf[msg.sender] = supply;
        totalSupply = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        move(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        allowance[from][msg.sender] -= value;
        move(from, to, value);
        return true;
    }

    function move(address from, address to, uint256 value) private {
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}

contract Pair {
    Token public immutable token0;
    Token public immutable token1;
    uint112 private reserve0;                  // slot 0, with reserve1
    uint112 private reserve1;
    uint256 public totalSupply;                // slot 1
    mapping(address => uint256) public balanceOf; // slot 2
    event Sync(uint112 reserve0, uint112 reserve1);
    event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to);

    constructor(Token a, Token b) {
        token0 = a;
        token1 = b;
    }

    function getReserves() external view returns (uint112, uint112) {
        return (reserve0, reserve1);
    }

    /** Liquidity for the tokens sent to the pair since the last update. */
    function mint(address to) external returns (uint256 liquidity) {
        uint256 balance0 = token0.balanceOf(address(this));
        uint256 balance1 = token1.balanceOf(address(this));
        uint256 amount0 = balance0 - reserve0;
        uint256 amount1 = balance1 - reserve1;
        if (totalSupply == 0) {
            liquidity = sqrt(amount0 * amount1);
        } else {
            uint256 l0 = (amount0 * totalSupply) / reserve0;
            uint256 l1 = (amount1 * totalSupply) / reserve1;
            liquidity = l0 < l1 ? l0 : l1;
        }
        require(liquidity > 0, "liquidity");
        totalSupply += liquidity;
        balanceOf[to] += liquidity;
        update(balance0, balance1);
    }

    /** Sends the amounts out; the tokens in must have been sent to the pair first (Uniswap V2's flow). */
    function swap(uint256 amount0Out, uint256 amount1Out, address to) external {
        require(amount0Out > 0 || amount1Out > 0, "output");
        (uint112 r0, uint112 r1) = (reserve0, reserve1);
        require(amount0Out < r0 && amount1Out < r1, "reserves");
        if (amount0Out > 0) token0.transfer(to, amount0Out);
        if (amount1Out > 0) token1.transfer(to, amount1Out);
        uint256 balance0 = token0.balanceOf(address(this));
        uint256 balance1 = token1.balanceOf(address(this));
        uint256 in0 = balance0 > r0 - amount0Out ? balance0 - (r0 - amount0Out) : 0;
        uint256 in1 = balance1 > r1 - amount1Out ? balance1 - (r1 - amount1Out) : 0;
        require(in0 > 0 || in1 > 0, "input");
        require((balance0 * 1000 - in0 * 3) * (balance1 * 1000 - in1 * 3) >= uint256(r0) * r1 * 1e6, "K");
        update(balance0, balance1);
        emit Swap(msg.sender, in0, in1, amount0Out, amount1Out, to);
    }

    function update(uint256 balance0, uint256 balance1) private {
        require(balance0 <= type(uint112).max && balance1 <= type(uint112).max, "overflow");
        reserve0 = uint112(balance0);
        reserve1 = uint112(balance1);
        emit Sync(reserve0, reserve1);
    }

    function sqrt(uint256 y) private pure returns (uint256 z) {
        if (y > 3) {
            z = y;
            uint256 x = y / 2 + 1;
            while (x < z) {
                z = x;
                x = (y / x + x) / 2;
            }
        } else if (y != 0) {
            z = 1;
        }
    }
}

contract Router {
    /** Swaps \`amountIn\` of the caller's \`tokenIn\` (approved to the router) for the pair's other token, paid to \`to\`. */
    function swapExactIn(Pair pair, Token tokenIn, uint256 amountIn, address to) external returns (uint256 amountOut) {
        (uint112 r0, uint112 r1) = pair.getReserves();
        bool zeroIn = address(tokenIn) == address(pair.token0());
        (uint256 reserveIn, uint256 reserveOut) = zeroIn ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
        uint256 inWithFee = amountIn * 997;
        amountOut = (inWithFee * reserveOut) / (reserveIn * 1000 + inWithFee);
        tokenIn.transferFrom(msg.sender, address(pair), amountIn);
        if (zeroIn) pair.swap(0, amountOut, to);
        else pair.swap(amountOut, 0, to);
    }
}

contract Registry {
    address public owner;
    mapping(uint256 => uint256) public entries;
    constructor(uint256 key, uint256 value) {
        owner = msg.sender;
        entries[key] = value;
    }
}
`;

const compiled = compileSolidity(SOURCE);

/** The compiled contracts: Token, Pair, Router and Registry. */
export const PAIR_CONTRACTS = {
  Token: compiled.Token!,
  Pair: compiled.Pair!,
  Router: compiled.Router!,
  Registry: compiled.Registry!,
};
