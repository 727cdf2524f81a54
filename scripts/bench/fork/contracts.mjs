// The fork benchmark's contracts (fork.mjs): an ERC-20-style token whose holders are derived in the
// contract (holder i = the low 20 bytes of keccak256(abi.encode("holder", i))), so that 10,000 of them
// are minted by a few calls carrying no addresses, a payable helper that funds a range of holders with
// coins, and a minimal Uniswap-V2-like constant-product pair (mint, swap with the 0.3% fee and the k
// check, getReserves, Sync and Swap events). Written for the benchmark; not Uniswap's code.
import {SOLIDITY_HEADER} from "../token.mjs";

export const FORK_CONTRACTS = `${SOLIDITY_HEADER}
function holderAddress(uint256 i) pure returns (address) {
    return address(uint160(uint256(keccak256(abi.encode("holder", i)))));
}

contract BenchToken {
    mapping(address => uint256) public balanceOf;
    uint256 public totalSupply;
    address private immutable minter;
    event Transfer(address indexed from, address indexed to, uint256 value);

    constructor(uint256 supply) {
        minter = msg.sender;
        balanceOf[msg.sender] = supply;
        totalSupply = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function holder(uint256 i) external pure returns (address) {
        return holderAddress(i);
    }

    /** Gives \`amount\` to holders \`first\` .. \`first + count - 1\`. */
    function mintRange(uint256 first, uint256 count, uint256 amount) external {
        require(msg.sender == minter, "minter");
        for (uint256 i = first; i < first + count; i++) {
            address to = holderAddress(i);
            balanceOf[to] += amount;
            emit Transfer(address(0), to, amount);
        }
        totalSupply += count * amount;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
        return true;
    }
}

contract HolderFunder {
    /** Splits the value sent evenly between holders \`first\` .. \`first + count - 1\`. */
    function fundRange(uint256 first, uint256 count) external payable {
        uint256 each = msg.value / count;
        for (uint256 i = first; i < first + count; i++) payable(holderAddress(i)).transfer(each);
    }
}

contract BenchPair {
    BenchToken public immutable token0;
    BenchToken public immutable token1;
    uint112 private reserve0;
    uint112 private reserve1;
    uint32 private blockTimestampLast;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    event Sync(uint112 reserve0, uint112 reserve1);
    event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to);

    constructor(BenchToken a, BenchToken b) {
        token0 = a;
        token1 = b;
    }

    function getReserves() external view returns (uint112, uint112, uint32) {
        return (reserve0, reserve1, blockTimestampLast);
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
        blockTimestampLast = uint32(block.timestamp);
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
`;

/** The constant-product output for `amountIn` against reserves `reserveIn`, `reserveOut` (0.3% fee), as Uniswap V2's router computes it. */
export function amountOut(amountIn, reserveIn, reserveOut) {
  const inWithFee = amountIn * 997n;
  return (inWithFee * reserveOut) / (reserveIn * 1000n + inWithFee);
}
