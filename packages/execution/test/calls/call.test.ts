/**
 * `BlockExecutor.call` (eth_call, gas estimation): calls run on pooled EVMs over an overlay that is
 * reset after each, so nothing a call does is kept or seen by the next.
 */
import {getChainspec} from "@xchain/chainspec";
import {compileSolidity} from "@xchain/test-utils";
import {bytesToBigInt} from "@xchain/utils";
import {beforeAll, describe, expect, it} from "vitest";
import {TransactionInvalidError} from "../../src/errors.ts";
import {intrinsicGas} from "../../src/intrinsic.ts";
import {calldata} from "../support/abi.ts";
import {ETHER, Signer} from "../support/accounts.ts";
import {TestChain} from "../support/chain.ts";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract Counter {
    uint256 public n;
    function inc() external returns (uint256) { n += 1; return n; }
    function incTransient() external returns (uint256 r) { assembly { r := add(tload(1), 1) tstore(1, r) } }
    function die() external { selfdestruct(payable(msg.sender)); }
}
`;

const chainspec = getChainspec("regtest");
const alice = new Signer("alice");
let chain: TestChain;
let counter: Uint8Array;
let selectors: Record<string, Uint8Array>;

async function call(signature: string, stateRoot = chain.head.stateRoot): Promise<bigint> {
  const result = await chain.executor.call({
    block: chain.context(),
    chain: chain.view(),
    stateRoot,
    from: alice.address,
    to: counter,
    data: calldata(selectors[signature] as Uint8Array),
    gasLimit: 1_000_000n,
  });
  expect(result.status).toBe(true);
  return bytesToBigInt(result.returnValue);
}

beforeAll(async () => {
  const compiled = compileSolidity(SOURCE).Counter!;
  selectors = compiled.selectors;
  chain = await TestChain.create(chainspec, [{address: alice.address, balance: ETHER}]);
  const block = await chain.execute([alice.sign({data: compiled.bytecode})]);
  counter = block.result?.outcomes[0]?.contractAddress as Uint8Array;
});

describe("BlockExecutor.call", () => {
  it("keeps nothing: storage and transient writes of one call are not seen by the next", async () => {
    expect(await call("inc()")).toBe(1n);
    expect(await call("inc()")).toBe(1n);
    expect(await call("incTransient()")).toBe(1n);
    expect(await call("incTransient()")).toBe(1n);
    expect(await call("n()")).toBe(0n);
  });

  it("runs concurrent calls, each on the untouched state", async () => {
    const results = await Promise.all(Array.from({length: 20}, () => call("inc()")));
    expect(results).toEqual(Array.from({length: 20}, () => 1n));
  });

  it("a self-destruct in a call leaves the contract in place", async () => {
    await chain.executor.call({
      block: chain.context(),
      chain: chain.view(),
      stateRoot: chain.head.stateRoot,
      from: alice.address,
      to: counter,
      data: calldata(selectors["die()"] as Uint8Array),
      gasLimit: 1_000_000n,
    });
    expect(await call("inc()")).toBe(1n);
  });

  it("answers from the state root it is given, and blocks executed after calls are unaffected", async () => {
    const before = chain.head.stateRoot;
    await chain.execute([alice.sign({to: counter, data: calldata(selectors["inc()"] as Uint8Array)})]);
    expect(await call("n()")).toBe(1n);
    expect(await call("n()", before)).toBe(0n);
    expect(await call("n()")).toBe(1n);
    const mined = await chain.execute([alice.sign({to: counter, data: calldata(selectors["inc()"] as Uint8Array)})]);
    expect(mined.result?.outcomes[0]?.status).toBe(true);
    expect(await call("n()")).toBe(2n);
  });

  it("takes the intrinsic gas its caller computed once instead of computing it per run", async () => {
    const data = calldata(selectors["n()"] as Uint8Array);
    const input = {
      block: chain.context(),
      chain: chain.view(),
      stateRoot: chain.head.stateRoot,
      from: alice.address,
      to: counter,
      data,
    };
    const intrinsic = intrinsicGas({to: counter, data});
    const computed = await chain.executor.call({...input, gasLimit: 100_000n});
    const carried = await chain.executor.call({...input, gasLimit: 100_000n, intrinsicGas: intrinsic});
    expect(carried).toEqual(computed);
    // The carried value is the one checked: one above the gas limit refuses the run.
    await expect(chain.executor.call({...input, gasLimit: intrinsic, intrinsicGas: intrinsic + 1n})).rejects.toThrow(
      TransactionInvalidError,
    );
    await expect(chain.executor.call({...input, gasLimit: intrinsic})).resolves.toBeDefined();
  });
});
