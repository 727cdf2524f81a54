// The fork benchmark's upstream (fork.mjs): an xchain regtest node, a real process on loopback without
// interval blocks, holding BenchToken A with `holders` holders (minted in batches by mintRange), token
// B, a BenchPair A/B with liquidity, and coins on the first FUNDED_HOLDERS holders (the impersonated
// senders pay their gas). The fork block is the head after setup; nothing is mined after it.
//
// Setup takes about a minute, so the built data directory is kept in the bench cache
// ($XCHAIN_BENCH_CACHE, else ~/.cache/xchain-bench) under fork-upstream-<key>, the key hashing the
// contracts' source and the holder count; fixture.json beside db/ marks it complete. A later run
// starts the node on it and checks the head is still the fork block; `fresh` rebuilds it.
import {createHash} from "node:crypto";
import {existsSync, mkdirSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {homedir} from "node:os";
import {join} from "node:path";
import {compileSolidity} from "@xchain/test-utils";
import {encodeDeployData} from "viem";
import {localNodeArgs, startNode, stopNode} from "../nodeProcess.mjs";
import {Client} from "./client.mjs";
import {FORK_CONTRACTS} from "./contracts.mjs";

/** Holders given coins for gas. */
export const FUNDED_HOLDERS = 100;
/** Tokens each holder gets (A), and each side of the pair's liquidity. */
export const HOLDER_TOKENS = 1000n * 10n ** 18n;
const LIQUIDITY = 10n ** 24n;
const SUPPLY = 10n ** 30n;
/** Holders minted per transaction: about 25,000 gas each under rskj's schedule, within a 10M-gas block. */
const MINT_BATCH = 300;
const NO_INTERVAL_BLOCKS = ["--miner.blockTimeMs", "0"];

const cacheRoot = () =>
  process.env.XCHAIN_BENCH_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "xchain-bench");

/** The compiled contracts, each {abi, bytecode}. */
export function compiledContracts() {
  return compileSolidity(FORK_CONTRACTS);
}

async function deploy(client, from, compiled, args = []) {
  const data = encodeDeployData({
    abi: compiled.abi,
    bytecode: `0x${Buffer.from(compiled.bytecode).toString("hex")}`,
    args,
  });
  const receipt = await client.send(from, {data, gas: "0x7a1200"});
  return {address: receipt.contractAddress, abi: compiled.abi};
}

/** Deploys and fills the fixture on a fresh node; returns what fixture.json records. */
async function build(client, holders) {
  const compiled = compiledContracts();
  const [deployer] = await client.call("eth_accounts");
  const tokenA = await deploy(client, deployer, compiled.BenchToken, [SUPPLY]);
  const tokenB = await deploy(client, deployer, compiled.BenchToken, [SUPPLY]);
  const funder = await deploy(client, deployer, compiled.HolderFunder);
  const pair = await deploy(client, deployer, compiled.BenchPair, [tokenA.address, tokenB.address]);
  const gas = "0x895440"; // 9,000,000
  for (let first = 0; first < holders; first += MINT_BATCH) {
    const count = Math.min(MINT_BATCH, holders - first);
    await client.invoke(deployer, tokenA, "mintRange", [BigInt(first), BigInt(count), HOLDER_TOKENS], {gas});
    process.stderr.write(`\rupstream: ${first + count} of ${holders} holders minted`);
  }
  process.stderr.write("\n");
  const coins = BigInt(FUNDED_HOLDERS) * 10n ** 19n;
  await client.invoke(deployer, funder, "fundRange", [0n, BigInt(FUNDED_HOLDERS)], {
    gas,
    value: `0x${coins.toString(16)}`,
  });
  await client.invoke(deployer, tokenA, "transfer", [pair.address, LIQUIDITY], {gas: "0x30d40"});
  await client.invoke(deployer, tokenB, "transfer", [pair.address, LIQUIDITY], {gas: "0x30d40"});
  await client.invoke(deployer, pair, "mint", [deployer], {gas: "0x61a80"});
  const head = await client.call("eth_getBlockByNumber", ["latest", false]);
  return {
    holders,
    deployer,
    tokenA: tokenA.address,
    tokenB: tokenB.address,
    pair: pair.address,
    forkBlock: Number(head.number),
    forkHash: head.hash,
    chainId: Number(await client.call("eth_chainId")),
  };
}

/**
 * The upstream, running: {node, fixture, contracts: {tokenA, tokenB, pair} ({address, abi})}. Built into
 * the cache on first use (or with `fresh`), else started on the cached data directory.
 */
export async function startUpstream({holders = 10_000, fresh = false} = {}) {
  const key = createHash("sha256").update(`${FORK_CONTRACTS}\n${holders}\n${MINT_BATCH}`).digest("hex").slice(0, 16);
  const dir = join(cacheRoot(), `fork-upstream-${key}`);
  const marker = join(dir, "fixture.json");
  if (fresh || !existsSync(marker)) {
    rmSync(dir, {recursive: true, force: true});
    mkdirSync(dir, {recursive: true});
  }
  const node = await startNode("upstream", [...localNodeArgs(dir), ...NO_INTERVAL_BLOCKS]);
  const client = new Client(node.http);
  try {
    let fixture;
    if (existsSync(marker)) {
      fixture = JSON.parse(readFileSync(marker, "utf8"));
      const head = await client.call("eth_getBlockByNumber", ["latest", false]);
      if (head.hash !== fixture.forkHash) {
        throw new Error(`the cached upstream in ${dir} moved past its fork block: remove it or pass --fresh`);
      }
      process.stderr.write(`upstream: cached in ${dir}\n`);
    } else {
      const start = performance.now();
      fixture = await build(client, holders);
      writeFileSync(marker, JSON.stringify(fixture, null, 2));
      process.stderr.write(`upstream: built in ${((performance.now() - start) / 1000).toFixed(1)} s into ${dir}\n`);
    }
    const compiled = compiledContracts();
    const contracts = {
      tokenA: {address: fixture.tokenA, abi: compiled.BenchToken.abi},
      tokenB: {address: fixture.tokenB, abi: compiled.BenchToken.abi},
      pair: {address: fixture.pair, abi: compiled.BenchPair.abi},
    };
    return {node, dataDir: dir, fixture, contracts, stop: () => stopNode(node)};
  } catch (e) {
    await stopNode(node);
    throw e;
  } finally {
    client.close();
  }
}
