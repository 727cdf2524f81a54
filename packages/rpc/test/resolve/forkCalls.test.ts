/**
 * eth_call and debug_traceCall on a forked chain (docs/forking.md §3.1): the call path
 * (`prepareCall`, resolve/callEnvironment.ts) answers BLOCKHASH at or below the fork block from the
 * chain's fork ancestry: here mainnet's own hashes, the fork anchored on mainnet's block 4,480,000.
 */
import {buildForkAnchor, Chain, defaultChainOptions} from "@xchain/chain";
import {getChainspec, regtestGenesis} from "@xchain/chainspec";
import {MemoryStore} from "@xchain/db";
import {BlockExecutor} from "@xchain/execution";
import {BlockHeader} from "@xchain/primitives";
import {defaultStateOptions, forkBaseId, readerBase, StateDatabase} from "@xchain/state";
import {readMainnetHeaderLines} from "@xchain/test-utils";
import {bytesToHex, hexToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {prepareCall} from "../../src/modules/eth/callRunner.ts";

const regtest = getChainspec("regtest");
const mainnet = getChainspec("mainnet");
const upstream = readMainnetHeaderLines().map((line) => BlockHeader.decode(hexToBytes(line), mainnet));
const FIRST = upstream[0]!.number;
const F = 4_480_000;
/** Returns BLOCKHASH of the number in its calldata. */
const HASHER = new Uint8Array(20).fill(0x26);
const HASHER_CODE = hexToBytes("0x6000354060005260206000f3");

const mainnetHash = (n: number) => upstream[n - FIRST]!.hash();
const word = (n: number) => hexToBytes(`0x${n.toString(16).padStart(64, "0")}`);

/** A fork of mainnet's block F over regtest's genesis state, with the hasher's code set at the anchor. */
async function mainnetFork() {
  const source = await Chain.open(defaultChainOptions, {
    store: new MemoryStore(),
    chainspec: regtest,
    genesis: regtestGenesis,
  });
  const base = readerBase(await source.stateAt(source.genesisHash), forkBaseId(30n, mainnetHash(F)));
  const store = new MemoryStore();
  const state = new StateDatabase(defaultStateOptions, {store, base: {current: () => base}});
  const header = BlockHeader.decode(upstream[F - FIRST]!.encode(), regtest);
  const anchor = await buildForkAnchor({upstreamChainId: 30, header, base}, state);
  const ancestry = {number: F, hashAt: async (n: number) => (n <= F ? upstream[n - FIRST]?.hash() : undefined)};
  const chain = await Chain.openFork(defaultChainOptions, {store, chainspec: regtest, state, fork: {anchor, ancestry}});
  await chain.editHeadState((edit) => edit.setCode(HASHER, HASHER_CODE));
  return {chain, executor: new BlockExecutor({}, {chainspec: regtest, state})};
}

describe("calls on a fork of a mainnet block", () => {
  it("answer BLOCKHASH at or below the fork block with the upstream's hashes", async () => {
    const deps = await mainnetFork();
    const head = deps.chain.head().header;
    expect(head.number).toBe(F);
    const cancel = {signal: new AbortController().signal};
    const hashAt = async (n: number, blockOverrides?: {number: number}) => {
      const call = await prepareCall(deps, {to: HASHER, data: word(n)}, head, cancel, undefined, blockOverrides);
      return bytesToHex((await call.run(100_000n))!.returnValue);
    };
    expect(await hashAt(F - 1)).toBe(bytesToHex(mainnetHash(F - 1)));
    expect(await hashAt(F - 5)).toBe(bytesToHex(mainnetHash(F - 5)));
    // A call at the anchor sees blocks below it; as block F+1 (a block override), F itself.
    expect(await hashAt(F)).toBe(bytesToHex(new Uint8Array(32)));
    expect(await hashAt(F, {number: F + 1})).toBe(bytesToHex(mainnetHash(F)));
    // Beyond BLOCKHASH's 256 blocks, nothing (the ancestry is not asked).
    expect(await hashAt(F - 257)).toBe(bytesToHex(new Uint8Array(32)));
  });
});
