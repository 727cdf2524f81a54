/**
 * Mining above a mainnet-like fork anchor (docs/forking.md §4.2): a real mainnet header (mainnet's
 * difficulty, minimum gas price, gas limit, RSKIP-92 encoding, a height past fork detection's 449
 * blocks) stored as the anchor of a fork whose rules are `forkChainspec`'s; the real miner seals and
 * the chain imports blocks F+1… with the CPU merge-miner under regtest's rules.
 */
import {anchorHeader, buildForkAnchor, Chain, defaultChainOptions} from "@xchain/chain";
import {forkChainspec, regtestGenesis} from "@xchain/chainspec";
import {calculateDifficulty} from "@xchain/consensus";
import {MemoryStore} from "@xchain/db";
import {BlockExecutor} from "@xchain/execution";
import {BlockHeader} from "@xchain/primitives";
import {defaultStateOptions, type ForkHeader, forkBaseId, readerBase, StateDatabase} from "@xchain/state";
import {readMainnetHeaderLines, rskjBlockJson} from "@xchain/test-utils";
import {hexToBytes, noopLogger} from "@xchain/utils";
import {afterEach, describe, expect, it} from "vitest";
import {defaultMinerOptions, Miner} from "../src/index.ts";
import {cows, regtest, TestPool, transfer} from "./helpers.ts";

const mainnetRules = forkChainspec({upstreamChainId: 30, forkBlockNumber: 0});
/** A mainnet header of block 4,480,000: difficulty ~10^20, minimumGasPrice ~6·10^7, gas limit 6.8M. */
const upstreamHeader = (() => {
  const lines = readMainnetHeaderLines();
  return BlockHeader.decode(hexToBytes(lines[159] as string), mainnetRules);
})();
const F = upstreamHeader.number;

/** The upstream's fork block as a `ForkSource` reads it (rskj's JSON object). */
function forkHeaderOf(header: BlockHeader): ForkHeader {
  return {
    number: header.number,
    hash: header.hash(),
    parentHash: header.parentHash,
    stateRoot: header.stateRoot,
    timestamp: BigInt(header.timestamp),
    gasLimit: header.gasLimit,
    difficulty: header.difficulty,
    baseFeePerGas: undefined,
    json: rskjBlockJson(header),
  };
}

const miners: Miner[] = [];
afterEach(async () => {
  for (const miner of miners.splice(0)) await miner.close();
});

/** A fork (signing with regtest's chain id 33) of the mainnet header, over regtest's genesis state as its base. */
async function openMainnetFork() {
  // The base: a state where the cow accounts hold funds (regtest's genesis), named as mainnet's block F.
  const sourceStore = new MemoryStore();
  const source = await Chain.open(defaultChainOptions, {
    store: sourceStore,
    chainspec: regtest,
    genesis: regtestGenesis,
  });
  const base = readerBase(await source.stateAt(source.genesisHash), forkBaseId(30n, upstreamHeader.hash()));

  const chainspec = forkChainspec({upstreamChainId: 30, forkBlockNumber: F, chainId: regtest.params.chainId});
  const store = new MemoryStore();
  const state = new StateDatabase(defaultStateOptions, {store, base: {current: () => base}});
  const header = anchorHeader(forkHeaderOf(upstreamHeader), chainspec);
  const anchor = await buildForkAnchor({upstreamChainId: 30, header, base}, state);
  const ancestry = {number: F, hashAt: async () => undefined};
  const chain = await Chain.openFork(defaultChainOptions, {store, chainspec, state, fork: {anchor, ancestry}});
  const pool = new TestPool(chain);
  const assemblerState = new StateDatabase(defaultStateOptions, {store, base: {current: () => base}});
  const miner = new Miner(
    {...defaultMinerOptions(chainspec), enabled: false},
    {
      chain,
      txpool: pool,
      assembler: new BlockExecutor({}, {chainspec, state: assemblerState}),
      chainspec,
      pendingState: state,
      probeState: state,
      stateDumps: state,
      logger: noopLogger,
    },
  );
  miners.push(miner);
  return {chain, chainspec, pool, miner};
}

describe("mining above a mainnet-like fork anchor", () => {
  it("stores the mainnet header as the anchor, hashing as mainnet hashes it", async () => {
    expect(upstreamHeader.difficulty).toBeGreaterThan(10n ** 18n);
    expect(upstreamHeader.minimumGasPrice).toBeGreaterThan(0n);
    const {chain} = await openMainnetFork();
    expect(chain.genesisHash).toEqual(upstreamHeader.hash());
    expect(chain.head().number).toBe(F);
  });

  it("seals F+1 at the minimum difficulty and keeps regtest's gas limit and gas price bands above it", async () => {
    const {chain, chainspec, pool, miner} = await openMainnetFork();
    const gasPrice = upstreamHeader.minimumGasPrice * 2n;
    pool.add(transfer(cows[0]!, {nonce: 0n, gasPrice}));
    await miner.mineBlock();
    pool.add(transfer(cows[0]!, {nonce: 1n, gasPrice}));
    await miner.mineBlock();
    await miner.mineBlock();
    expect(chain.head().number).toBe(F + 3);
    const first = await chain.getBlock((await chain.getHeaderByNumber(F + 1))!.hash());
    expect(first?.header.parentHash).toEqual(upstreamHeader.hash());
    expect(first?.header.difficulty).toBe(chainspec.minimumDifficulty(F + 1));
    // The transfer and the REMASC transaction.
    expect(first?.transactions).toHaveLength(2);
    let parent = upstreamHeader;
    for (let n = F + 1; n <= F + 3; n++) {
      const header = (await chain.getHeaderByNumber(n))!;
      expect(header.difficulty).toBe(calculateDifficulty(header, parent, chainspec));
      // The bands: 1% of the parent's minimum gas price, 1/1024 of its gas limit.
      const priceStep = parent.minimumGasPrice / 100n;
      expect(header.minimumGasPrice).toBeGreaterThanOrEqual(parent.minimumGasPrice - priceStep);
      expect(header.minimumGasPrice).toBeLessThanOrEqual(parent.minimumGasPrice + priceStep);
      const gasStep = parent.gasLimit / 1024n;
      expect(header.gasLimit).toBeGreaterThanOrEqual(parent.gasLimit - gasStep);
      expect(header.gasLimit).toBeLessThanOrEqual(parent.gasLimit + gasStep);
      expect(header.uncleCount).toBe(0);
      parent = header;
    }
  });
});
