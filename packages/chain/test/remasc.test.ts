/**
 * REMASC as rskj pays it, through real import of blocks assembled by the test chain builder (so the
 * builder's assembly and import agree on every root): siblings, their publishers, the late-uncle
 * punishment, a broken selection rule and its punishment on the next payout, the remainders burned
 * (docs/protocol/native-contracts.md §11.1). Each figure below is worked by hand from the spec's
 * algorithm (§14.7), regtest: maturity 10, syntheticSpan 5.
 */
import {regtestGenesis} from "@xchain/chainspec";
import {Bucket, LevelStore, WriteBatch} from "@xchain/db";
import {REMASC_STORAGE_KEYS} from "@xchain/execution";
import {type Block, REMASC_ADDRESS} from "@xchain/primitives";
import {bytesToBigInt, bytesToPrefixedHex, hexToBytes, utf8ToBytes} from "@xchain/utils";
import {afterEach, describe, expect, it} from "vitest";
import {Chain, ChainError, ChainErrorCode, defaultChainOptions, ImportResultKind} from "../src/index.ts";
import {cleanup, cows, newBuilder, openChain, regtest, signTx} from "./helpers.ts";

afterEach(cleanup);

const coinbase = (byte: number) => new Uint8Array(20).fill(byte);
const [A, B, C, D, E, G, H] = [0xa1, 0xb1, 0xc1, 0xd1, 0xe1, 0x91, 0x81].map(coinbase) as [
  Uint8Array,
  Uint8Array,
  Uint8Array,
  Uint8Array,
  Uint8Array,
  Uint8Array,
  Uint8Array,
];
const LABS = hexToBytes("dabadabadabadabadabadabadabadabadaba0001");
const FEDERATORS = [
  "6b045752f4d650a510a353bbf7e52988331e7f5b",
  "85845342b0d5260d516d6da5280a7df9a96d1925",
  "138161cda86b55c0de1bc3a0adef974633c85fbe",
].map((hex) => hexToBytes(hex));

/**
 * Main chain 1…18; block 6 (A) carries 2,100,000 wei of fees, block 7 (C) 210,000. Block 6 has two
 * siblings: 6′ (B) included by block 7 on time, 6″ (E) included by block 9 (D) two blocks late. Block 7
 * has one, 7′ (G), which paid 1,050,000 (more than twice block 7's fees: the selection rule is broken),
 * included by block 8 (H).
 */
async function buildChain(): Promise<{main: Block[]; all: Block[]}> {
  const builder = await newBuilder();
  const main = [builder.genesis, ...(await builder.buildChain(5))];
  const b5 = main[5] as Block;
  const b6 = await builder.buildBlock({
    coinbase: A,
    transactions: [signTx(cows[0]!, {nonce: 0n, to: cows[9]!.address, gasPrice: 100n})],
  });
  const s6a = await builder.buildBlock({parent: b5, coinbase: B});
  const s6b = await builder.buildBlock({parent: b5, coinbase: E});
  const b7 = await builder.buildBlock({
    parent: b6,
    coinbase: C,
    uncles: [s6a.header],
    transactions: [signTx(cows[1]!, {nonce: 0n, to: cows[9]!.address, gasPrice: 10n})],
  });
  const s7 = await builder.buildBlock({
    parent: b6,
    coinbase: G,
    transactions: [signTx(cows[3]!, {nonce: 0n, to: cows[9]!.address, gasPrice: 50n})],
  });
  const b8 = await builder.buildBlock({parent: b7, coinbase: H, uncles: [s7.header]});
  const b9 = await builder.buildBlock({parent: b8, coinbase: D, uncles: [s6b.header]});
  main.push(b6, b7, b8, b9, ...(await builder.buildChain(9)));
  return {main, all: [...main.slice(1, 7), s6a, s6b, b7, s7, b8, b9, ...main.slice(10)]};
}

describe("REMASC with siblings", () => {
  it("shares a payout with siblings and publishers, punishes late uncles and a broken selection rule", async () => {
    const {chain} = await openChain();
    const {main, all} = await buildChain();
    for (const block of all) {
      const result = await chain.importBlock(block.encode());
      expect(result.kind, `block ${block.header.number}`).not.toBe(ImportResultKind.INVALID_BLOCK);
    }
    expect(bytesToPrefixedHex(chain.head().hash)).toBe(bytesToPrefixedHex((main[18] as Block).hash()));
    const at = async (n: number) => chain.stateAt((main[n] as Block).hash());
    const named: [string, Uint8Array][] = [
      ["labs", LABS],
      ...FEDERATORS.map((f, i): [string, Uint8Array] => [`fed${i}`, f]),
      ...Object.entries({A, B, C, D, E, G, H}),
    ];
    // What block n paid: each balance's change from block n − 1, the accounts that got something.
    const paidBy = async (n: number) => {
      const [before, after] = [await at(n - 1), await at(n)];
      const paid: Record<string, bigint> = {};
      for (const [name, address] of named) {
        const change =
          ((await after.getAccount(address))?.balance ?? 0n) - ((await before.getAccount(address))?.balance ?? 0n);
        if (change !== 0n) paid[name] = change;
      }
      return paid;
    };
    const remascState = async (n: number) => {
      const state = await at(n);
      const read = async (key: Uint8Array) => bytesToBigInt(await state.getStorage(REMASC_ADDRESS, key));
      const {rewardBalance, burnedBalance, brokenSelectionRule} = REMASC_STORAGE_KEYS;
      return {
        reward: await read(rewardBalance),
        burned: await read(burnedBalance),
        broken: await read(brokenSelectionRule),
      };
    };

    // Block 16 processes block 6: pool 2,100,000, R = 420,000; labs 84,000; federation 3,360 (1,120 each);
    // 332,640 left: publishers 33,264 (16,632 to C and to D); miners 299,376 / 3 = 99,792 to A, to B and,
    // less 2/20 for two blocks late (9,979 burned), 89,813 to E.
    const fed16 = {fed0: 1_120n, fed1: 1_120n, fed2: 1_120n};
    expect(await paidBy(16)).toEqual({
      labs: 84_000n,
      ...fed16,
      A: 99_792n,
      B: 99_792n,
      C: 16_632n,
      D: 16_632n,
      E: 89_813n,
    });
    expect(await remascState(16)).toEqual({reward: 1_680_000n, burned: 9_979n, broken: 0n});
    const receipts16 = await chain.getReceipts((main[16] as Block).hash());
    const logs16 = receipts16?.at(-1)?.logs ?? [];
    // One log per payment, in rskj's order: labs, federators, publishers, siblings, the miner.
    expect(logs16.map((log) => bytesToPrefixedHex((log.topics[1] as Uint8Array).subarray(12)))).toEqual(
      [LABS, ...FEDERATORS, C, D, B, E, A].map(bytesToPrefixedHex),
    );

    // Block 17 processes block 7 (fees 210,000): pool 1,890,000, R = 378,000; labs 75,600; federation
    // 3,024 (1,008 each); 299,376 left: publisher H 29,937; miners 269,439 / 2 = 134,719 to C and G,
    // remainder 1 burned. 7′ paid more than twice block 7's fees: the selection rule is broken.
    const fed17 = {fed0: 1_008n, fed1: 1_008n, fed2: 1_008n};
    expect(await paidBy(17)).toEqual({labs: 75_600n, ...fed17, C: 134_719n, G: 134_719n, H: 29_937n});
    expect(await remascState(17)).toEqual({reward: 1_512_000n, burned: 9_980n, broken: 1n});

    // Block 18 processes block 8 (no fees, no siblings) after a broken rule: R = 302,400; labs 60,480;
    // federation 2,419 (806, 806, 807); a tenth of the 239,501 left is burned (23,950), H gets 215,551.
    expect(await paidBy(18)).toEqual({labs: 60_480n, fed0: 806n, fed1: 806n, fed2: 807n, H: 215_551n});
    expect(await remascState(18)).toEqual({reward: 1_209_600n, burned: 33_930n, broken: 0n});
    // What REMASC holds is exactly its pool and what it burned: 2,310,000 of fees less the payments.
    expect((await (await at(18)).getAccount(REMASC_ADDRESS))?.balance).toBe(1_209_600n + 33_930n);
  });

  it("pays each chain's own blocks: a block on another branch processes that branch's block", async () => {
    const {chain} = await openChain();
    const builder = await newBuilder();
    const a = await builder.buildChain(15, {coinbase: A});
    const b1 = await builder.buildBlock({
      parent: builder.genesis.hash(),
      coinbase: B,
      transactions: [signTx(cows[2]!, {nonce: 0n, to: cows[1]!.address, gasPrice: 5n})],
    });
    const b = [b1, ...(await builder.buildChain(14, {coinbase: B}))];
    for (const block of [...a, ...b]) {
      expect((await chain.importBlock(block.encode())).kind).not.toBe(ImportResultKind.INVALID_BLOCK);
    }
    const reward = async (block: Block) =>
      bytesToBigInt(
        await (await chain.stateAt(block.hash())).getStorage(REMASC_ADDRESS, REMASC_STORAGE_KEYS.rewardBalance),
      );
    // Branch B's block 11 put its block 1's fees in the pool; branch A's had none.
    expect(await reward(a[10] as Block)).toBe(0n);
    expect(await reward(b[10] as Block)).toBe(21_000n * 5n);
    expect(regtest.params.remascMaturity).toBe(10);
  });
});

describe("a database made under the simplified payout", () => {
  it("is refused with the reason, never opened to a state-root mismatch", async () => {
    const first = await openChain();
    const builder = await newBuilder();
    for (const block of await builder.buildChain(3)) await first.chain.importBlock(block.encode());
    await first.store.close();
    // What every database written before rskj's REMASC holds: schema version 1.
    const store = await LevelStore.open(first.dir);
    try {
      await store.write(new WriteBatch().put(Bucket.meta, utf8ToBytes("schemaVersion"), Uint8Array.of(1)));
      const error = await Chain.open(defaultChainOptions, {store, chainspec: regtest, genesis: regtestGenesis}).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ChainError);
      expect((error as ChainError).type).toEqual({
        code: ChainErrorCode.SCHEMA_VERSION_MISMATCH,
        expected: 2,
        stored: 1,
      });
      expect((error as ChainError).message).toMatch(/simplified REMASC payout.*new data directory/);
    } finally {
      await store.close();
    }
  });
});
