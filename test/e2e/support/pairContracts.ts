// Contracts for the fork replay tests (test/e2e/fork/replay.test.ts): the fork benchmark's token and
// Uniswap-V2-like pair (scripts/bench/fork/contracts.mjs: BenchToken, BenchPair), with a swapper that swaps
// in one message (the tokens it holds sent to the pair, then the pair's swap, the amount out as Uniswap V2's
// router computes it), so that an eth_call answers a swap's output, and a small contract to deploy.
import {join} from "node:path";
import {pathToFileURL} from "node:url";
import {type CompiledContract, compileSolidity} from "@xchain/test-utils";

const EXTRA = `
contract Swapper {
    /** Swaps \`amountIn\` of \`tokenIn\` (held by the swapper) for the pair's other token, paid to \`to\`. */
    function swapExactIn(BenchPair pair, BenchToken tokenIn, uint256 amountIn, address to) external returns (uint256 amountOut) {
        (uint112 r0, uint112 r1, ) = pair.getReserves();
        bool zeroIn = address(tokenIn) == address(pair.token0());
        (uint256 reserveIn, uint256 reserveOut) = zeroIn ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
        uint256 inWithFee = amountIn * 997;
        amountOut = (inWithFee * reserveOut) / (reserveIn * 1000 + inWithFee);
        tokenIn.transfer(address(pair), amountIn);
        if (zeroIn) pair.swap(0, amountOut, to);
        else pair.swap(amountOut, 0, to);
    }
}

contract Registry {
    address public owner;                      // slot 0
    mapping(uint256 => uint256) public entries; // slot 1
    constructor(uint256 key, uint256 value) {
        owner = msg.sender;
        entries[key] = value;
    }
}
`;

/** The compiled contracts, and the constant-product output the pair pays (the benchmark's `amountOut`). */
export interface PairContracts {
  BenchToken: CompiledContract;
  BenchPair: CompiledContract;
  Swapper: CompiledContract;
  Registry: CompiledContract;
  amountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint;
}

/** Compiles the benchmark's contracts with the swapper and the registry. */
export async function pairContracts(): Promise<PairContracts> {
  const path = join(import.meta.dirname, "..", "..", "..", "scripts", "bench", "fork", "contracts.mjs");
  const bench = (await import(pathToFileURL(path).href)) as {
    FORK_CONTRACTS: string;
    amountOut: PairContracts["amountOut"];
  };
  const compiled = compileSolidity(bench.FORK_CONTRACTS + EXTRA);
  const contract = (name: string) => {
    const found = compiled[name];
    if (!found) throw new Error(`${name} is not compiled`);
    return found;
  };
  return {
    BenchToken: contract("BenchToken"),
    BenchPair: contract("BenchPair"),
    Swapper: contract("Swapper"),
    Registry: contract("Registry"),
    amountOut: bench.amountOut,
  };
}
