// The fork benchmark's workload (fork.mjs): what a test suite does against a forked protocol, each
// request awaited before the next as a test's would be. Reads (balanceOf of many holders, the pair's
// reserves and a raw storage slot, coin balances, code), token transfers and coin sends from
// impersonated holders, and swaps through the pair from an impersonated trader. Every answer is
// checked against the upstream's fixture, so a fork that answers wrongly fails the run.
import {encodeAbiParameters, keccak256} from "viem";
import {amountOut} from "./contracts.mjs";
import {FUNDED_HOLDERS, HOLDER_TOKENS} from "./upstream.mjs";

/** Holders whose token balance is read. */
const READ_HOLDERS = 500;
/** Funded holders whose coin balance is read. */
const COIN_READS = 50;
/** Impersonated holders, each sending one token transfer and one coin send. */
const IMPERSONATED = 20;
/** Swaps by the trader (holder 0), alternating A→B and B→A. */
const SWAPS = 10;
const SWAP_IN = 10n ** 18n;

/** Holder i's address, as BenchToken derives it. */
export function holderAddress(i) {
  const word = keccak256(encodeAbiParameters([{type: "string"}, {type: "uint256"}], ["holder", BigInt(i)]));
  return `0x${word.slice(-40)}`;
}

function expectEqual(what, actual, expected) {
  if (actual !== expected) throw new Error(`${what}: ${actual}, expected ${expected}`);
}

async function reads(client, {fixture, contracts}) {
  for (let i = 0; i < READ_HOLDERS; i++) {
    const index = Math.floor((i * fixture.holders) / READ_HOLDERS);
    expectEqual(
      `balanceOf(holder ${index})`,
      await client.read(contracts.tokenA, "balanceOf", [holderAddress(index)]),
      HOLDER_TOKENS,
    );
  }
  const [r0, r1] = await client.read(contracts.pair, "getReserves");
  // Slot 0 packs reserve0 (low 112 bits), reserve1 and the timestamp, as Uniswap V2's pair does.
  const slot0 = BigInt(await client.call("eth_getStorageAt", [fixture.pair, "0x0", "latest"]));
  expectEqual("reserve0 from storage", slot0 & ((1n << 112n) - 1n), r0);
  for (let i = 0; i < COIN_READS; i++) {
    const balance = BigInt(await client.call("eth_getBalance", [holderAddress(i + IMPERSONATED), "latest"]));
    expectEqual(`coins of holder ${i + IMPERSONATED}`, balance, 10n ** 19n);
  }
  for (const address of [fixture.tokenA, fixture.tokenB, fixture.pair]) {
    const code = await client.call("eth_getCode", [address, "latest"]);
    if (code.length < 100) throw new Error(`no code at ${address}`);
  }
  return r1 > 0n;
}

async function impersonatedSends(client, {fixture, contracts}) {
  for (let k = 1; k <= IMPERSONATED; k++) {
    const from = holderAddress(k);
    const to = holderAddress(fixture.holders - k);
    await client.call("anvil_impersonateAccount", [from]);
    await client.invoke(from, contracts.tokenA, "transfer", [to, 10n ** 18n]);
    expectEqual(
      `balanceOf(holder ${fixture.holders - k})`,
      await client.read(contracts.tokenA, "balanceOf", [to]),
      HOLDER_TOKENS + 10n ** 18n,
    );
    await client.send(from, {to: holderAddress(FUNDED_HOLDERS + k), value: "0x2386f26fc10000"}); // 0.01
    await client.call("anvil_stopImpersonatingAccount", [from]);
  }
}

async function swaps(client, {contracts}) {
  const trader = holderAddress(0);
  await client.call("anvil_impersonateAccount", [trader]);
  // A→B with SWAP_IN, then B→A with what came out, and again: the trader holds only A at the fork block.
  let amountIn = SWAP_IN;
  for (let s = 0; s < SWAPS; s++) {
    const aToB = s % 2 === 0;
    const [tokenIn, tokenOut] = aToB ? [contracts.tokenA, contracts.tokenB] : [contracts.tokenB, contracts.tokenA];
    const [r0, r1] = await client.read(contracts.pair, "getReserves");
    const out = aToB ? amountOut(amountIn, r0, r1) : amountOut(amountIn, r1, r0);
    const before = await client.read(tokenOut, "balanceOf", [trader]);
    await client.invoke(trader, tokenIn, "transfer", [contracts.pair.address, amountIn]);
    await client.invoke(trader, contracts.pair, "swap", aToB ? [0n, out, trader] : [out, 0n, trader]);
    const after = await client.read(tokenOut, "balanceOf", [trader]);
    expectEqual(`swap ${s} output`, after - before, out);
    amountIn = aToB ? out : SWAP_IN;
  }
  await client.call("anvil_stopImpersonatingAccount", [trader]);
}

/** Runs the sequence on the fork at `client` (a new Client); resolves with its wall time in seconds and the gas its transactions used. */
export async function runSequence(client, upstream) {
  const start = performance.now();
  await reads(client, upstream);
  await impersonatedSends(client, upstream);
  await swaps(client, upstream);
  return {seconds: (performance.now() - start) / 1000, gasUsed: client.gasUsed};
}
