import {describe, expect, it} from "vitest";
import {forkChainspec, getChainspec} from "../src/index.ts";

const regtest = getChainspec("regtest");

describe("forkChainspec", () => {
  it("runs regtest's rules with the upstream's chain id, fork block and RSKIP-110 off", () => {
    const fork = forkChainspec({upstreamChainId: 33, forkBlockNumber: 120});
    expect(fork.params).toMatchObject({name: "fork", chainId: 33, forkBlockNumber: 120, remascMaturity: 10});
    expect(fork.isActive("RSKIP110", 121)).toBe(false);
    expect(regtest.isActive("RSKIP110", 121)).toBe(true);
    // Everything else is regtest's.
    const {RSKIP110: _f, ...rest} = fork.params.activation;
    const {RSKIP110: _r, ...regtestRest} = regtest.params.activation;
    expect(rest).toEqual(regtestRest);
    expect(fork.minimumDifficulty(121)).toBe(regtest.minimumDifficulty(121));
  });

  it("signs with fork.chainId when given", () => {
    expect(forkChainspec({upstreamChainId: 30, forkBlockNumber: 1, chainId: 31337}).params.chainId).toBe(31337);
  });

  it("encodes headers as the upstream network does", () => {
    const mainnetFork = forkChainspec({upstreamChainId: 30, forkBlockNumber: 700_000});
    expect(mainnetFork.isRskip92Active(728_999)).toBe(false);
    expect(mainnetFork.isRskip92Active(729_000)).toBe(true);
    expect(mainnetFork.hasUmmRoot(2_392_699)).toBe(false);
    expect(mainnetFork.hasUmmRoot(2_392_700)).toBe(true);
    const testnetFork = forkChainspec({upstreamChainId: 31, forkBlockNumber: 1});
    expect(testnetFork.isRskip92Active(0)).toBe(true);
    expect(testnetFork.hasUmmRoot(862_999)).toBe(false);
    // Ethereum and xchain regtest upstreams: regtest's heights.
    const other = forkChainspec({upstreamChainId: 1, forkBlockNumber: 1});
    expect([other.isRskip92Active(0), other.hasUmmRoot(1)]).toEqual([true, true]);
  });
});
