// The sync benchmark's chain (scripts/bench/sync.mjs, docs/performance.md §12): a regtest chain whose
// blocks mix what Rootstock mainnet's carry, built in process with the test chain builder (real
// merged-mining proofs, the REMASC transaction closing every block, every block executed as the import
// executes it) and written as two block files in `xchain db import`'s format (geth's: the blocks'
// encodings one after another): setup.rlp, then blocks.rlp. Built once into a cache directory keyed by
// its parameters; a later run with the same parameters reuses it.
//
// The mix (a choice, not a measurement of mainnet; Rootstock mainnet's blocks come every ~30 s, most
// carry a handful of transactions or none but REMASC, and its state holds millions of accounts):
//   - setup: an ERC-20 token and a storage contract deployed, `accounts` accounts funded with value
//     (400 transfers a block) and the first `holders` of them with tokens (150 a block);
//   - each measured block: empty (REMASC alone) with probability EMPTY_SHARE, else 1 + an exponential
//     number of transactions with mean `txs` (at most MAX_TXS), each, between accounts chosen by a seeded
//     generator: a value transfer (TRANSFER_SHARE; 1 in FRESH_ONE_IN to a fresh address, so the account
//     count keeps growing), an ERC-20 transfer between holders (TOKEN_SHARE), a call overwriting 1–8
//     storage slots of the storage contract (the rest), or, 1 in DEPLOY_ONE_IN, a contract deployment;
//   - every transaction pays MAINNET_GAS_PRICE (0.06 gwei, about mainnet's minimum), so REMASC has fees to
//     pay out.
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import {join} from "node:path";
import {LevelStore} from "@xchain/db";
import {concatBytes, keccak256, utf8ToBytes} from "@xchain/utils";
import {createBuilder, keyedAccounts, sign, uint256} from "../chainFixture.mjs";
import {deployAndFund, random} from "../storage/mixedChain.mjs";

const EMPTY_SHARE = 0.35;
const MAX_TXS = 40;
const TRANSFER_SHARE = 0.5;
const TOKEN_SHARE = 0.25;
const FRESH_ONE_IN = 10;
const DEPLOY_ONE_IN = 1000;
const MAINNET_GAS_PRICE = 60_000_000n;
/** Built blocks the builder keeps in memory: more than any build reads back (449 for fork detection). */
const KEPT_BLOCKS = 1024;
/** Bumped whenever the mix changes, so that a cached chain of another mix is not reused. */
const MIX_VERSION = 1;

/** The cache directory of a chain with these parameters, under `dir`. */
export function chainDir(dir, {blocks, accounts, holders, txs, seed}) {
  return join(
    dir,
    `mix${MIX_VERSION}-blocks-${blocks}-accounts-${accounts}-holders-${holders}-txs-${txs}-seed-${seed}`,
  );
}

/**
 * The chain with these parameters: read from its cache directory under `dir`, or built into it first
 * (`progress(built, total, seconds)` every 1,000 blocks). Returns {dir, setupFile, blocksFile, setup,
 * blocks, txs, gas, emptyBlocks, deployments, freshAccounts, buildSeconds, built} (`built`: this call built it).
 */
export async function mainnetChain(dir, params, progress = () => {}) {
  const out = chainDir(dir, params);
  const metaFile = join(out, "chain.json");
  const files = {dir: out, setupFile: join(out, "setup.rlp"), blocksFile: join(out, "blocks.rlp")};
  if (existsSync(metaFile)) return {...files, ...JSON.parse(readFileSync(metaFile, "utf8")), built: false};
  mkdirSync(out, {recursive: true});
  const start = performance.now();
  const meta = await build(params, out, files, (n) => progress(n, params.blocks, (performance.now() - start) / 1000));
  const buildSeconds = (performance.now() - start) / 1000;
  // The metadata last: a build cut short leaves no chain.json, and the next run builds again.
  const {blocks, accounts, holders, txs, seed} = params;
  writeFileSync(metaFile, JSON.stringify({params: {blocks, accounts, holders, txs, seed}, ...meta, buildSeconds}));
  return {...files, ...meta, buildSeconds, built: true};
}

/** A block file being written: `write(bytes)` appends a block's encoding; `close()` moves it to `path`. */
function blockFile(path) {
  const partial = `${path}.partial`;
  const fd = openSync(partial, "w");
  return {
    write: (bytes) => writeSync(fd, bytes),
    close() {
      closeSync(fd);
      renameSync(partial, path);
    },
  };
}

async function build({blocks, accounts, holders, txs: meanTxs, seed}, dir, files, progress) {
  const stateDir = join(dir, "builder-state");
  rmSync(stateDir, {recursive: true, force: true});
  const store = await LevelStore.open(stateDir);
  let file = blockFile(files.setupFile);
  try {
    const builder = await createBuilder(store);
    const emit = async (transactions) => {
      const block = await builder.buildBlock({transactions});
      file.write(block.encode());
      const number = block.header.number;
      if (number % 1000 === 0) builder.forgetBlocksBelow(number - KEPT_BLOCKS);
      return block;
    };
    const pay = (from, values) => sign(from, {gasPrice: MAINNET_GAS_PRICE, ...values});

    const pool = keyedAccounts("sync-account", accounts);
    const holderPool = pool.slice(0, holders);
    const {Token, Store, token, storeContract, tokenTransfer} = await deployAndFund(emit, pay, pool, holderPool);
    const setup = builder.tip.header.number;
    file.close();
    file = blockFile(files.blocksFile);

    const next = random(`sync-${seed}`);
    const pick = (from) => from[Math.floor(next() * from.length)];
    let fresh = 0;
    const freshAddress = () => keccak256(utf8ToBytes(`sync-fresh-${seed}-${fresh++}`)).subarray(12);
    const writeSelector = Store.selectors["write(uint256,uint256,uint256)"];
    const transaction = (number) => {
      if (next() * DEPLOY_ONE_IN < 1) {
        const bytecode = next() < 0.5 ? Token.bytecode : Store.bytecode;
        return pay(pick(pool), {gasLimit: 1_500_000n, data: bytecode});
      }
      const kind = next();
      if (kind < TRANSFER_SHARE) {
        const to = next() * FRESH_ONE_IN < 1 ? freshAddress() : pick(pool).address;
        return pay(pick(pool), {gasLimit: 21_000n, to, value: 1n});
      }
      if (kind < TRANSFER_SHARE + TOKEN_SHARE) {
        const data = tokenTransfer(pick(holderPool).address, 1n);
        return pay(pick(holderPool), {gasLimit: 100_000n, to: token, data});
      }
      const slots = 1 + Math.floor(next() * 8);
      const data = concatBytes(writeSelector, uint256(Math.floor(next() * 4096)), uint256(slots), uint256(number));
      return pay(pick(pool), {gasLimit: 300_000n, to: storeContract, data});
    };
    let txs = 0;
    let gas = 0n;
    let emptyBlocks = 0;
    let deployments = 0;
    for (let n = 1; n <= blocks; n++) {
      const transactions = [];
      if (next() < EMPTY_SHARE) emptyBlocks++;
      else {
        const count = Math.min(MAX_TXS, 1 + Math.floor(-Math.log(1 - next()) * (meanTxs - 1)));
        for (let i = 0; i < count; i++) transactions.push(transaction(setup + n));
      }
      deployments += transactions.filter((tx) => tx.to === undefined).length;
      const block = await emit(transactions);
      txs += transactions.length;
      gas += block.header.gasUsed;
      if (n % 1000 === 0) progress(n);
    }
    file.close();
    return {setup, blocks, txs, gas: Number(gas), emptyBlocks, deployments, freshAccounts: fresh};
  } finally {
    await store.close();
    rmSync(stateDir, {recursive: true, force: true});
  }
}
