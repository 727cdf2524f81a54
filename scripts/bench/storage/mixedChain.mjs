// The storage benchmark's chain (scripts/bench/storage.mjs): after setup blocks that deploy an
// ERC-20 token and a storage-heavy contract and fund `accounts` keyed accounts with value and
// tokens, each measured block carries, between accounts chosen by a seeded generator:
//   - 4 value transfers between accounts (1 in 20 to a fresh address: the state keeps growing,
//     slowly, as a real chain's does),
//   - 2 ERC-20 transfers between accounts,
//   - 1 call to the storage contract overwriting 16 consecutive slots of 4,096 with the block's
//     number (slot churn: the live state stays the same size while every version is written).
// Built with the test chain builder (chainFixture.mjs: real merged-mining proofs, the REMASC
// transaction closing every block) on a LevelDB store of its own, and written block by block.
import {mkdtempSync, rmSync} from "node:fs";
import {join} from "node:path";
import {LevelStore} from "@xchain/db";
import {compileSolidity} from "@xchain/test-utils";
import {concatBytes, keccak256, utf8ToBytes} from "@xchain/utils";
import {contractAddress, createBuilder, fundedAccount, keyedAccounts, sign, uint256} from "../chainFixture.mjs";
import {SOLIDITY_HEADER, TOKEN_CONTRACT} from "../token.mjs";
import {blockWriter} from "./blockFile.mjs";

/** The storage-heavy contract: `write` overwrites `count` consecutive slots (mod 4,096) with `value`. */
const STORE_CONTRACT = `contract Store {
    mapping(uint256 => uint256) public slots;
    function write(uint256 start, uint256 count, uint256 value) external {
        for (uint256 i = 0; i < count; i++) slots[(start + i) % 4096] = value;
    }
}`;

const TRANSFERS = 4;
const TOKEN_TRANSFERS = 2;
const STORE_WRITES = 1;
const SLOTS_PER_WRITE = 16;
const FRESH_ONE_IN = 20;
/** Transactions a setup block carries (funding transfers of 21,000 gas; token transfers of ~52,000). */
const FUNDING_PER_BLOCK = 400;
const TOKEN_FUNDING_PER_BLOCK = 150;
/** Built blocks the builder keeps in memory: more than any build reads back (449 for fork detection). */
const KEPT_BLOCKS = 1024;

/** The transactions each measured block carries, REMASC excluded. */
export const TXS_PER_BLOCK = TRANSFERS + TOKEN_TRANSFERS + STORE_WRITES;

/** Numbers in [0, 1) decided by `seed`: the 32-bit words of keccak("storage-random-<seed>-<i>"), i = 0, 1, … */
export function random(seed) {
  let words = new Uint32Array(0);
  let used = 0;
  let counter = 0;
  return () => {
    if (used === words.length) {
      words = new Uint32Array(keccak256(utf8ToBytes(`storage-random-${seed}-${counter++}`)).slice().buffer);
      used = 0;
    }
    return words[used++] / 2 ** 32;
  };
}

/**
 * The setup blocks the synthetic chains start with (this one and sync/mainnetChain.mjs): the token and
 * the storage contract deployed by the first cow account, then `accounts` funded with value
 * (FUNDING_PER_BLOCK a block) and `holders` with tokens (TOKEN_FUNDING_PER_BLOCK a block), each block
 * built by `emit(transactions)`, each transaction signed by `signer(from, values)` (chainFixture's `sign`
 * or one that sets a gas price). Returns the compiled contracts, their addresses and `tokenTransfer(to, amount)`'s
 * call data.
 */
export async function deployAndFund(emit, signer, accounts, holders) {
  const cow = fundedAccount();
  const {Token, Store} = compileSolidity(`${SOLIDITY_HEADER}${TOKEN_CONTRACT}\n${STORE_CONTRACT}`);
  const token = contractAddress(cow.address, 0);
  const storeContract = contractAddress(cow.address, 1);
  await emit([
    signer(cow, {gasLimit: 1_000_000n, data: Token.bytecode}),
    signer(cow, {gasLimit: 1_000_000n, data: Store.bytecode}),
  ]);
  const tokenTransfer = (to, amount) =>
    concatBytes(Token.selectors["transfer(address,uint256)"], new Uint8Array(12), to, uint256(amount));
  for (let i = 0; i < accounts.length; i += FUNDING_PER_BLOCK) {
    const batch = accounts.slice(i, i + FUNDING_PER_BLOCK);
    await emit(batch.map((a) => signer(cow, {gasLimit: 21_000n, to: a.address, value: 10n ** 21n})));
  }
  for (let i = 0; i < holders.length; i += TOKEN_FUNDING_PER_BLOCK) {
    const batch = holders.slice(i, i + TOKEN_FUNDING_PER_BLOCK);
    await emit(
      batch.map((a) => signer(cow, {gasLimit: 100_000n, to: token, data: tokenTransfer(a.address, 10n ** 24n)})),
    );
  }
  return {Token, Store, token, storeContract, tokenTransfer};
}

/**
 * Builds the chain of `blocks` measured blocks over `accounts` accounts into `file` (blockFile.mjs),
 * its builder's state in a temporary store under `workDir`. `progress(built, total)` is called every
 * 1,000 blocks. Returns {setup, blocks, txs}: setup blocks first, then the measured ones.
 */
export async function buildMixedChain({blocks, accounts, seed = 1}, file, workDir, progress = () => {}) {
  const stateDir = mkdtempSync(join(workDir, "builder-state-"));
  const store = await LevelStore.open(stateDir);
  const out = blockWriter(file);
  try {
    const builder = await createBuilder(store);
    let txs = 0;
    const emit = async (transactions) => {
      const block = await builder.buildBlock({transactions});
      out.write(block.encode());
      txs += transactions.length;
      const number = block.header.number;
      if (number % 1000 === 0) builder.forgetBlocksBelow(number - KEPT_BLOCKS);
      return number;
    };

    const pool = keyedAccounts("storage-account", accounts);
    const {Store, token, storeContract, tokenTransfer} = await deployAndFund(emit, sign, pool, pool);
    const setup = builder.tip.header.number;
    const setupTxs = txs;

    const next = random(seed);
    const pick = () => pool[Math.floor(next() * pool.length)];
    let fresh = 0;
    const freshAddress = () => keccak256(utf8ToBytes(`storage-fresh-${fresh++}`)).subarray(12);
    const writeSelector = Store.selectors["write(uint256,uint256,uint256)"];
    for (let n = 1; n <= blocks; n++) {
      const transactions = [];
      for (let i = 0; i < TRANSFERS; i++) {
        const to = next() * FRESH_ONE_IN < 1 ? freshAddress() : pick().address;
        transactions.push(sign(pick(), {gasLimit: 21_000n, to, value: 1n}));
      }
      for (let i = 0; i < TOKEN_TRANSFERS; i++) {
        transactions.push(sign(pick(), {gasLimit: 100_000n, to: token, data: tokenTransfer(pick().address, 1n)}));
      }
      for (let i = 0; i < STORE_WRITES; i++) {
        const start = Math.floor(next() * 4096);
        const data = concatBytes(writeSelector, uint256(start), uint256(SLOTS_PER_WRITE), uint256(setup + n));
        transactions.push(sign(pick(), {gasLimit: 600_000n, to: storeContract, data}));
      }
      await emit(transactions);
      if (n % 1000 === 0) progress(n, blocks);
    }
    return {setup, blocks, txs: txs - setupTxs, freshAccounts: fresh};
  } finally {
    out.close();
    await store.close();
    rmSync(stateDir, {recursive: true, force: true});
  }
}
