/**
 * REMASC as rskj pays it (docs/protocol/native-contracts.md §11): the regtest vector of the spec
 * (rskj `RemascProcessMinerFeesTest.processMinersFeesWithNoSiblings`), REMASC's storage, its
 * `mining_fee` logs and its receipt, RSKIP-85's deferral, and the blocks a fork's REMASC processes.
 * Siblings and late uncles run through real import in packages/chain/test/remasc.test.ts.
 */
import {Address} from "@ethereumjs/util";
import {Chainspec, getChainspec, withGenesisFederationKeys} from "@xchain/chainspec";
import {decodeRlp, REMASC_ADDRESS} from "@xchain/primitives";
import {bytesToHex, bytesToPrefixedHex, hexToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {MINING_FEE_TOPIC, REMASC_STORAGE_KEYS, type RemascHeader, RemascStorage, remascAncestry} from "../src/index.ts";
import {federatorAddresses} from "../src/native/remasc/federation.ts";
import {ETHER, Signer} from "./support/accounts.ts";
import {type TestBlock, TestChain} from "./support/chain.ts";

const chainspec = getChainspec("regtest");
const LABS = hexToBytes("dabadabadabadabadabadabadabadabadaba0001");
// Spec §14.5.3: the regtest federators' RSK addresses, in the Bridge's order.
const FEDERATORS = [
  "0x6b045752f4d650a510a353bbf7e52988331e7f5b",
  "0x85845342b0d5260d516d6da5280a7df9a96d1925",
  "0x138161cda86b55c0de1bc3a0adef974633c85fbe",
];
const minerA = new Uint8Array(20).fill(0xaa);
const recipient = new Uint8Array(20).fill(0xee);

/** A chain whose block 5, mined by A, carries one 21,000-gas transfer at gas price 1 (21,000 wei of fees). */
async function vectorChain(minimumGasPrice = 0n): Promise<TestChain> {
  const alice = new Signer("alice");
  const chain = await TestChain.create(chainspec, [{address: alice.address, balance: ETHER}]);
  for (let n = 1; n <= 4; n++) await chain.execute([], {minimumGasPrice});
  await chain.execute([alice.sign({to: recipient, gasLimit: 21_000n, gasPrice: 1n + minimumGasPrice})], {
    coinbase: minerA,
    minimumGasPrice,
  });
  return chain;
}

async function executeUpTo(chain: TestChain, last: number, minimumGasPrice = 0n): Promise<TestBlock> {
  while (chain.head.number < last) await chain.execute([], {minimumGasPrice});
  return chain.head;
}

const balance = async (chain: TestChain, address: Uint8Array, root?: Uint8Array) =>
  (await chain.account(address, root))?.balance;
const stored = async (chain: TestChain, key: Uint8Array, root?: Uint8Array) =>
  bytesToHex(await chain.storage(REMASC_ADDRESS, key, root));

describe("REMASC on regtest (spec §14.7's vector)", () => {
  it("pays block 5's fees at block 15: labs 840, each federator 11, miner 3,327; 16,800 stay in the pool", async () => {
    const chain = await vectorChain();
    await executeUpTo(chain, 14);
    // Blocks 11 to 14 processed blocks 1 to 4 (no fees); block 15 processes block 5.
    expect(await balance(chain, minerA)).toBeUndefined();
    expect(await balance(chain, REMASC_ADDRESS)).toBe(21_000n);
    expect(await stored(chain, REMASC_STORAGE_KEYS.rewardBalance)).toBe("");
    const block15 = await executeUpTo(chain, 15);

    expect(await balance(chain, LABS)).toBe(840n);
    for (const federator of FEDERATORS) expect(await balance(chain, hexToBytes(federator))).toBe(11n);
    expect(await balance(chain, minerA)).toBe(3_327n);
    expect(await balance(chain, REMASC_ADDRESS)).toBe(16_800n);
    expect(await stored(chain, REMASC_STORAGE_KEYS.rewardBalance)).toBe("41a0");
    expect(await stored(chain, REMASC_STORAGE_KEYS.burnedBalance)).toBe("");
    expect(await stored(chain, REMASC_STORAGE_KEYS.federationBalance)).toBe("");
    // rskj's raw byte 00: a zero word, which the state does not hold.
    expect(await stored(chain, REMASC_STORAGE_KEYS.brokenSelectionRule)).toBe("");
    expect(await stored(chain, REMASC_STORAGE_KEYS.siblings)).toBe("c0");

    // The REMASC transaction's receipt: status 1, no gas, one mining_fee log per payment.
    const receipt = block15.result?.outcomes.at(-1);
    expect(receipt?.status).toBe(true);
    expect(receipt?.gasUsed).toBe(0n);
    const block5Hash = chain.blocks[5]?.hash as Uint8Array;
    const logs = receipt?.logs ?? [];
    expect(logs.map((log) => bytesToPrefixedHex(log.address))).toEqual(
      Array(5).fill(bytesToPrefixedHex(REMASC_ADDRESS)),
    );
    expect(logs.map((log) => bytesToHex(log.topics[0] as Uint8Array))).toEqual(
      Array(5).fill("000000000000000000000000000000006d696e696e675f6665655f746f706963"),
    );
    expect(logs.map((log) => bytesToPrefixedHex((log.topics[1] as Uint8Array).subarray(12)))).toEqual([
      bytesToPrefixedHex(LABS),
      ...FEDERATORS,
      bytesToPrefixedHex(minerA),
    ]);
    expect(logs.map((log) => log.topics[1]?.subarray(0, 12).every((b) => b === 0))).toEqual(Array(5).fill(true));
    // data = RLP [block 5's hash, amount]
    expect(logs.map((log) => decodeRlp(log.data))).toEqual([
      [block5Hash, hexToBytes("0348")],
      [block5Hash, hexToBytes("0b")],
      [block5Hash, hexToBytes("0b")],
      [block5Hash, hexToBytes("0b")],
      [block5Hash, hexToBytes("0cff")],
    ]);
    expect(bytesToHex(logs[0]?.data as Uint8Array)).toBe(`e4a0${bytesToHex(block5Hash)}820348`);
  });

  it("adds block 6's fees before paying a fifth of the pool at block 16, and logs zero payments too", async () => {
    const chain = await vectorChain();
    await executeUpTo(chain, 16);
    // Block 6 had no fees: R = 16,800 / 5 = 3,360; labs 672; federation 2,688 / 100 = 26 (8, 8, 10).
    expect(await balance(chain, LABS)).toBe(840n + 672n);
    expect(await balance(chain, hexToBytes(FEDERATORS[0] as string))).toBe(11n + 8n);
    expect(await balance(chain, hexToBytes(FEDERATORS[2] as string))).toBe(11n + 10n);
    // Block 6's coinbase (the test chain's default) gets 3,360 − 672 − 26.
    expect(await balance(chain, chain.blocks[6]?.coinbase as Uint8Array)).toBe(2_662n);
    expect(await stored(chain, REMASC_STORAGE_KEYS.rewardBalance)).toBe((13_440).toString(16));

    // The pool empties a fifth at a time; once it is 0 every block still pays (and logs) five zeros.
    const empty = await TestChain.create(chainspec, []);
    const block15 = await executeUpTo(empty, 15);
    const logs = block15.result?.outcomes.at(-1)?.logs ?? [];
    expect(logs).toHaveLength(5);
    expect(logs.map((log) => bytesToHex(log.data).slice(-2))).toEqual(Array(5).fill("80"));
    // rskj's addBalance creates the account even for 0 (spec §14.8 item 6).
    expect(await empty.account(LABS)).toEqual(expect.objectContaining({balance: 0n}));
  });

  it("writes only the empty siblings list before maturity, and no log before block 15", async () => {
    const chain = await TestChain.create(chainspec, []);
    const block1 = await executeUpTo(chain, 1);
    expect(await stored(chain, REMASC_STORAGE_KEYS.siblings)).toBe("c0");
    expect(block1.result?.outcomes.at(-1)?.logs).toEqual([]);
    for (let n = 2; n <= 14; n++) expect((await chain.execute([])).result?.outcomes.at(-1)?.logs).toEqual([]);
    expect((await chain.execute([])).result?.outcomes.at(-1)?.logs).toHaveLength(5);
  });

  it("under RSKIP-85 defers a payout below minimumGasPrice × 200,000, keeping the pool", async () => {
    const chain = await vectorChain(1n);
    const block15 = await executeUpTo(chain, 15, 1n);
    // Fees 21,000 × 2; R = 8,400 < 1 × 200,000: nothing is paid, the pool keeps all of it.
    expect(block15.result?.outcomes.at(-1)?.logs).toEqual([]);
    expect(await balance(chain, minerA)).toBeUndefined();
    expect(await stored(chain, REMASC_STORAGE_KEYS.rewardBalance)).toBe((42_000).toString(16));
  });

  it("encodes getStateForDebugging as rskj does: fresh c48080c000", async () => {
    const chain = await TestChain.create(chainspec, []);
    const session = await chain.source.openSession(chain.head.stateRoot, chain.common);
    const fresh = await RemascStorage.load(session.stateManager, new Address(REMASC_ADDRESS));
    expect(bytesToHex(fresh.encodeStateForDebugging())).toBe("c48080c000");
    fresh.set("rewardBalance", 16_800n);
    fresh.set("burnedBalance", 1n);
    fresh.set("brokenSelectionRule", true);
    expect(bytesToHex(fresh.encodeStateForDebugging())).toBe("c68241a001c001");
    session.release();
  });
});

describe("REMASC's constants", () => {
  it("pays the regtest federators at the addresses of §14.5.3, in the Bridge's order", () => {
    expect(federatorAddresses(chainspec.params.bridge).map(bytesToPrefixedHex)).toEqual(FEDERATORS);
    expect(bytesToHex(MINING_FEE_TOPIC)).toBe("000000000000000000000000000000006d696e696e675f6665655f746f706963");
    expect(bytesToHex(REMASC_STORAGE_KEYS.rewardBalance)).toBe(`${"00".repeat(19)}72657761726442616c616e6365`);
  });

  it("pays the federation that bridge.genesisFederationPublicKeys configures, as the Bridge reports it", async () => {
    // Two keys (1·G and 2·G, compressed): their addresses are the federators' now, sorted by key.
    const keys = [
      "02c6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5",
      "0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798",
    ];
    const spec = new Chainspec(withGenesisFederationKeys(chainspec.params, keys));
    const federators = federatorAddresses(spec.params.bridge).map(bytesToPrefixedHex);
    expect(federators).toEqual([
      "0x7e5f4552091a69125d5dfcb7b8c2659029395bdf",
      "0x2b5ad5c4795c026514f8317c7a215e218dccd6cf",
    ]);
    const alice = new Signer("alice");
    const chain = await TestChain.create(spec, [{address: alice.address, balance: ETHER}]);
    for (let n = 1; n <= 4; n++) await chain.execute([]);
    await chain.execute([alice.sign({to: recipient, gasLimit: 21_000n, gasPrice: 1n})], {coinbase: minerA});
    const paid = await executeUpTo(chain, 15);
    // R = 4,200: labs 840, the federation 3,360 / 100 = 33 split in two (16, and 17 to the last).
    expect(await balance(chain, hexToBytes(federators[0]!), paid.stateRoot)).toBe(16n);
    expect(await balance(chain, hexToBytes(federators[1]!), paid.stateRoot)).toBe(17n);
    for (const federator of FEDERATORS)
      expect(await balance(chain, hexToBytes(federator), paid.stateRoot)).toBe(undefined);
  });

  it("processes block N − maturity, none before block 11, and on a fork none at or below the fork block", async () => {
    const header = (n: number): RemascHeader => ({
      number: n,
      coinbase: new Uint8Array(20),
      paidFees: 0n,
      uncleCount: 0,
      hash: () => new Uint8Array(32).fill(n),
    });
    const read = async (n: number) => ({header: header(n), uncles: []});
    expect(await remascAncestry(chainspec, 10, undefined, read)).toBeUndefined();
    expect((await remascAncestry(chainspec, 11, undefined, read))?.processing.number).toBe(1);
    expect(await remascAncestry(chainspec, 130, 120, read)).toBeUndefined();
    expect((await remascAncestry(chainspec, 131, 120, read))?.processing.number).toBe(121);
    const missing = await remascAncestry(chainspec, 20, undefined, async () => undefined).catch((e: unknown) => e);
    expect(missing).toMatchObject({type: {code: "BLOCK_EXEC_REMASC_ANCESTOR_MISSING", blockNumber: 10}});
  });
});
