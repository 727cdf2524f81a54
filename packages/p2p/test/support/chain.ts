/**
 * A small real regtest chain for the p2p tests: blocks from the test-utils `ChainBuilder` (one with
 * a transaction, one with an uncle) imported into a `Chain` on a MemoryStore, which is the
 * `P2PChainView` the host serves from.
 */
import {Chain, defaultChainOptions, ImportResultKind} from "@xchain/chain";
import {type Chainspec, getChainspec, regtestGenesis} from "@xchain/chainspec";
import {calculateDifficulty} from "@xchain/consensus";
import {MemoryStore} from "@xchain/db";
import {type Block, type BlockDecodeOptions, Transaction} from "@xchain/primitives";
import {ChainBuilder, cowAccounts} from "@xchain/test-utils";

export const regtest: Chainspec = getChainspec("regtest");
export const decodeOptions: BlockDecodeOptions = {rules: regtest, chainId: regtest.params.chainId};
export const NETWORK_ID: number = regtest.params.p2pNetworkId;

/** A signed transfer from the first cow account (nonce as given). */
export function transfer(nonce: bigint, value = 1n, data: Uint8Array = new Uint8Array(0)): Transaction {
  const [cow] = cowAccounts();
  if (!cow) throw new Error("no cow accounts");
  return Transaction.sign(
    {nonce, gasPrice: 0n, gasLimit: 21_000n, to: new Uint8Array(20).fill(0x11), value, data},
    cow.privateKey,
    regtest.params.chainId,
  );
}

export function newBuilder(): Promise<ChainBuilder> {
  return ChainBuilder.create({
    chainspec: regtest,
    genesis: regtestGenesis,
    difficulty: (h, p) => calculateDifficulty(h, p, regtest),
  });
}

/** An empty chain (genesis only). */
export async function openChain(): Promise<Chain> {
  const store = new MemoryStore();
  return Chain.open(defaultChainOptions, {store, chainspec: regtest, genesis: regtestGenesis});
}

/** Blocks 1…length: block 1 carries a transfer, block 3 an uncle (a sibling of block 2). */
export interface TestBlocks {
  builder: ChainBuilder;
  blocks: Block[];
}

export async function buildBlocks(length: number): Promise<TestBlocks> {
  const builder = await newBuilder();
  const b1 = await builder.buildBlock({transactions: [transfer(0n)]});
  const b2 = await builder.buildBlock();
  const sibling = await builder.buildBlock({parent: b1, extraData: Uint8Array.of(7)});
  const b3 = await builder.buildBlock({parent: b2, uncles: [sibling.header]});
  const rest = await builder.buildChain(Math.max(0, length - 3), {parent: b3});
  return {builder, blocks: [b1, b2, b3, ...rest].slice(0, length)};
}

/** A chain with `blocks` imported (all must import as the best). */
export async function chainWith(blocks: readonly Block[]): Promise<Chain> {
  const chain = await openChain();
  for (const block of blocks) {
    const result = await chain.importBlock(block);
    if (result.kind !== ImportResultKind.IMPORTED_BEST) throw new Error(`block ${block.header.number}: ${result.kind}`);
  }
  return chain;
}
