// End-to-end: `xchain start --fork.url` over an Ethereum upstream (docs/forking.md). A real anvil process
// on a free loopback port, behind a counting proxy, holds a deployed counter, a funded account and a few
// blocks; an xchain node forks it at its head F. Balances, nonces, storage, code and BLOCKHASH below F
// read on the fork equal anvil's own answers at F; the fork takes anvil's chain id; transactions mined on
// the fork (from the fork's dev account and from an impersonated anvil account) change the fork and
// leave the upstream as it was; a swap through a constant-product pair deployed on anvil pays on the fork
// what the pair's reserves at F say; a value read once is not fetched again.
import {join} from "node:path";
import {pathToFileURL} from "node:url";
import {compileSolidity} from "@xchain/test-utils";
import {type Abi, bytesToHex, decodeFunctionResult, encodeDeployData, encodeFunctionData} from "viem";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {COUNTER_ABI, counterBytecode} from "../support/counterContract.ts";
import {type DevTarget, NO_INTERVAL_BLOCKS, startAnvil} from "../support/devClients.ts";
import {rpc, waitForReceipt} from "../support/jsonRpc.ts";
import {UpstreamProxy} from "../support/upstreamProxy.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

/** anvil's first dev account (its default mnemonic). */
const ANVIL_DEV = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
const RECIPIENT = "0x00000000000000000000000000000000000a0b01";
const ONE_ETHER = 10n ** 18n;

/** Creation code that returns BLOCKHASH(n): PUSH2 n BLOCKHASH PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN. */
const blockHashReader = (n: number) => `0x61${n.toString(16).padStart(4, "0")}4060005260206000f3`;
const quantity = (n: bigint | number) => `0x${n.toString(16)}`;

let anvil: DevTarget;
let proxy: UpstreamProxy;
let fork: RunningNode;
let counter: string;
let forkBlock: number;
/** The benchmark's tokens A and B and their pair (scripts/bench/fork/contracts.mjs), deployed on anvil. */
let pair: {tokenA: string; tokenB: string; pair: string; tokenAbi: Abi; pairAbi: Abi};
let amountOut: (amountIn: bigint, reserveIn: bigint, reserveOut: bigint) => bigint;

/** Sends `functionName(args)` to `to` from `from` on the node at `url` and waits for its receipt. */
async function invoke(url: string, from: string, to: string, abi: Abi, functionName: string, args: unknown[] = []) {
  const data = encodeFunctionData({abi, functionName, args});
  return waitForReceipt(url, await rpc<string>(url, "eth_sendTransaction", [{from, to, data}]));
}

/** `functionName(args)` of `to` called on the node at `url` at `block`, decoded. */
async function read<T>(url: string, to: string, abi: Abi, functionName: string, args: unknown[], block: string) {
  const data = await rpc<`0x${string}`>(url, "eth_call", [
    {to, data: encodeFunctionData({abi, functionName, args})},
    block,
  ]);
  return decodeFunctionResult({abi, functionName, data}) as T;
}

/** Deploys the benchmark's two tokens and their pair on anvil, with 10^24 of each as liquidity. */
async function deployPair(url: string) {
  const contracts = join(import.meta.dirname, "..", "..", "..", "scripts", "bench", "fork", "contracts.mjs");
  const module = (await import(pathToFileURL(contracts).href)) as {
    FORK_CONTRACTS: string;
    amountOut: typeof amountOut;
  };
  amountOut = module.amountOut;
  const compiled = compileSolidity(module.FORK_CONTRACTS);
  const deploy = async (name: string, args: unknown[]) => {
    const contract = compiled[name];
    if (contract === undefined) throw new Error(`${name} is not in the benchmark's contracts`);
    const data = encodeDeployData({abi: contract.abi as Abi, bytecode: bytesToHex(contract.bytecode), args});
    const hash = await rpc<string>(url, "eth_sendTransaction", [{from: ANVIL_DEV, data}]);
    return (await waitForReceipt(url, hash)).contractAddress as string;
  };
  const tokenAbi = compiled.BenchToken?.abi as Abi;
  const pairAbi = compiled.BenchPair?.abi as Abi;
  const tokenA = await deploy("BenchToken", [10n ** 30n]);
  const tokenB = await deploy("BenchToken", [10n ** 30n]);
  const address = await deploy("BenchPair", [tokenA, tokenB]);
  for (const token of [tokenA, tokenB])
    await invoke(url, ANVIL_DEV, token, tokenAbi, "transfer", [address, 10n ** 24n]);
  await invoke(url, ANVIL_DEV, address, pairAbi, "mint", [ANVIL_DEV]);
  return {tokenA, tokenB, pair: address, tokenAbi, pairAbi};
}

beforeAll(async () => {
  // Chain id 33: anvil's default 31337 does not fit a Rootstock transaction's one-byte v (a fork of it needs fork.chainId).
  anvil = await startAnvil();
  // At the fork block: a counter whose slot 0 is 2, a funded recipient, and blocks below it to hash.
  const deploy = await rpc<string>(anvil.url, "eth_sendTransaction", [{from: ANVIL_DEV, data: counterBytecode()}]);
  counter = (await waitForReceipt(anvil.url, deploy)).contractAddress as string;
  const increment = encodeFunctionData({abi: COUNTER_ABI, functionName: "increment"});
  for (let i = 0; i < 2; i++) {
    const hash = await rpc<string>(anvil.url, "eth_sendTransaction", [{from: ANVIL_DEV, to: counter, data: increment}]);
    await waitForReceipt(anvil.url, hash);
  }
  const send = await rpc<string>(anvil.url, "eth_sendTransaction", [
    {from: ANVIL_DEV, to: RECIPIENT, value: quantity(ONE_ETHER)},
  ]);
  await waitForReceipt(anvil.url, send);
  pair = await deployPair(anvil.url);
  for (let i = 0; i < 3; i++) await rpc(anvil.url, "evm_mine", []);
  forkBlock = Number(await rpc<string>(anvil.url, "eth_blockNumber"));
  proxy = new UpstreamProxy(anvil.url);
  const proxyUrl = await proxy.start();
  fork = await startNode([...NO_INTERVAL_BLOCKS, "--fork.url", proxyUrl, "--fork.block", String(forkBlock)]);
}, 120_000);

afterAll(async () => {
  await fork?.stop();
  await proxy?.stop();
  await anvil?.stop();
});

/** anvil's own answer at the fork block. */
const upstream = <T = string>(method: string, ...params: unknown[]) =>
  rpc<T>(anvil.url, method, [...params, quantity(forkBlock)]);
const onFork = <T = string>(method: string, ...params: unknown[]) => rpc<T>(fork.httpUrl, method, params);

describe("a fork of an anvil upstream", () => {
  it("takes the upstream's chain id and continues its block numbers", async () => {
    expect(await onFork("eth_chainId")).toBe(await rpc<string>(anvil.url, "eth_chainId"));
    expect(Number(await onFork("eth_blockNumber"))).toBeGreaterThanOrEqual(forkBlock);
  });

  it("reads balances, nonces, storage and code as the upstream answers them at the fork block", async () => {
    for (const address of [ANVIL_DEV, RECIPIENT, counter]) {
      expect(await onFork("eth_getBalance", address, "latest")).toBe(await upstream("eth_getBalance", address));
      expect(await onFork("eth_getTransactionCount", address, "latest")).toBe(
        await upstream("eth_getTransactionCount", address),
      );
      expect(await onFork("eth_getCode", address, "latest")).toBe(await upstream("eth_getCode", address));
    }
    const slot0 = await upstream("eth_getStorageAt", counter, "0x0");
    expect(BigInt(slot0)).toBe(2n);
    expect(BigInt(await onFork("eth_getStorageAt", counter, "0x0", "latest"))).toBe(2n);
    const count = encodeFunctionData({abi: COUNTER_ABI, functionName: "count"});
    expect(BigInt(await onFork("eth_call", {to: counter, data: count}, "latest"))).toBe(2n);
    // Read again: the fork answers from what it fetched, without asking the upstream.
    const before = proxy.requests;
    expect(before).toBeGreaterThan(0);
    expect(await onFork("eth_getBalance", RECIPIENT, "latest")).toBe(quantity(ONE_ETHER));
    expect(BigInt(await onFork("eth_getStorageAt", counter, "0x0", "latest"))).toBe(2n);
    expect(proxy.requests).toBe(before);
  });

  it("answers BLOCKHASH below the fork block with the upstream's hashes", async () => {
    for (const n of [forkBlock - 1, forkBlock - 3, 1]) {
      const expected = (await rpc<{hash: string}>(anvil.url, "eth_getBlockByNumber", [quantity(n), false])).hash;
      expect(await onFork("eth_call", {data: blockHashReader(n)}, "latest")).toBe(expected);
    }
  });

  it("mines transactions on the fork, from its dev account and from an impersonated upstream account", async () => {
    const [devAccount] = await onFork<string[]>("eth_accounts");
    const increment = encodeFunctionData({abi: COUNTER_ABI, functionName: "increment"});
    const call = await onFork("eth_sendTransaction", {from: devAccount, to: counter, data: increment});
    expect((await waitForReceipt(fork.httpUrl, call)).status).toBe("0x1");
    expect(BigInt(await onFork("eth_getStorageAt", counter, "0x0", "latest"))).toBe(3n);

    const nonce = BigInt(await upstream("eth_getTransactionCount", ANVIL_DEV));
    await onFork("anvil_impersonateAccount", ANVIL_DEV);
    const send = await onFork("eth_sendTransaction", {from: ANVIL_DEV, to: RECIPIENT, value: quantity(ONE_ETHER)});
    const receipt = await waitForReceipt(fork.httpUrl, send);
    expect(receipt.status).toBe("0x1");
    expect(Number(receipt.blockNumber)).toBeGreaterThan(forkBlock);
    expect(BigInt(await onFork("eth_getBalance", RECIPIENT, "latest"))).toBe(2n * ONE_ETHER);
    expect(BigInt(await onFork("eth_getTransactionCount", ANVIL_DEV, "latest"))).toBe(nonce + 1n);

    // The upstream is untouched.
    expect(BigInt(await rpc<string>(anvil.url, "eth_getStorageAt", [counter, "0x0", "latest"]))).toBe(2n);
    expect(BigInt(await rpc<string>(anvil.url, "eth_getBalance", [RECIPIENT, "latest"]))).toBe(ONE_ETHER);
  });

  it("swaps through a pair deployed upstream, paying what the pair's reserves at the fork block say", async () => {
    const {tokenA, tokenB, pair: address, tokenAbi, pairAbi} = pair;
    const at = quantity(forkBlock);
    const [reserveA, reserveB] = await read<[bigint, bigint, number]>(
      anvil.url,
      address,
      pairAbi,
      "getReserves",
      [],
      at,
    );
    const onForkReserves = await read<[bigint, bigint, number]>(
      fork.httpUrl,
      address,
      pairAbi,
      "getReserves",
      [],
      "latest",
    );
    expect(onForkReserves).toEqual([reserveA, reserveB, expect.any(Number)]);
    const amountIn = 10n ** 18n;
    const out = amountOut(amountIn, reserveA, reserveB);
    const balanceB = () => read<bigint>(fork.httpUrl, tokenB, tokenAbi, "balanceOf", [ANVIL_DEV], "latest");
    const before = await balanceB();
    expect(before).toBe(await read<bigint>(anvil.url, tokenB, tokenAbi, "balanceOf", [ANVIL_DEV], at));
    await onFork("anvil_impersonateAccount", ANVIL_DEV);
    await invoke(fork.httpUrl, ANVIL_DEV, tokenA, tokenAbi, "transfer", [address, amountIn]);
    expect((await invoke(fork.httpUrl, ANVIL_DEV, address, pairAbi, "swap", [0n, out, ANVIL_DEV])).status).toBe("0x1");
    expect((await balanceB()) - before).toBe(out);
    const [afterA, afterB] = await read<[bigint, bigint, number]>(
      fork.httpUrl,
      address,
      pairAbi,
      "getReserves",
      [],
      "latest",
    );
    expect([afterA, afterB]).toEqual([reserveA + amountIn, reserveB - out]);
    // One more wei out than the formula allows breaks the pair's k check.
    await invoke(fork.httpUrl, ANVIL_DEV, tokenA, tokenAbi, "transfer", [address, amountIn]);
    const greedy = amountOut(amountIn, afterA, afterB) + 1n;
    const data = encodeFunctionData({abi: pairAbi, functionName: "swap", args: [0n, greedy, ANVIL_DEV]});
    await expect(onFork("eth_estimateGas", {from: ANVIL_DEV, to: address, data})).rejects.toThrow(/K/);
  });
});
