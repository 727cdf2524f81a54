// Block import throughput: builds a chain of value transfers and one of ERC-20 transfers with the
// test chain builder, then imports each, from raw block bytes, into a fresh LevelDB data directory
// through full validation. Prints blocks/s, transactions/s, Mgas/s and peak RSS next to the rate of
// sender recovery alone (decode + secp256k1 recovery of the same transactions), measured in the
// same run: the floor of this work. The chain is built in this process and imported in a fresh
// child process, so the import's time and peak RSS are its own. Needs a build (`npm run build`).
//
//   node scripts/bench/import.mjs [blocks=1000] [txsPerBlock=100] [transfer|erc20|both=both]
import {execFileSync} from "node:child_process";
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {Chain} from "@xchain/chain";
import {getChainspec, regtestGenesis} from "@xchain/chainspec";
import {calculateDifficulty} from "@xchain/consensus";
import {LevelStore} from "@xchain/db";
import {Block, Transaction} from "@xchain/primitives";
import {ChainBuilder, compileSolidity, cowAccounts} from "@xchain/test-utils";
import {
  bytesToHex,
  concatBytes,
  hexToBytes,
  keccak256,
  publicKeyOf,
  secp256k1Backend,
  utf8ToBytes,
} from "@xchain/utils";
import {SOLIDITY_HEADER, TOKEN_CONTRACT} from "./token.mjs";

const blockCount = Number(process.argv[2] ?? 1000);
const txsPerBlock = Number(process.argv[3] ?? 100);
const which = process.argv[4] ?? "both";
const chainspec = getChainspec("regtest");
const chainId = chainspec.params.chainId;
const EMPTY = new Uint8Array(0);

const TOKEN = `${SOLIDITY_HEADER}${TOKEN_CONTRACT}`;

/** `txsPerBlock` senders: key i is keccak("bench-sender-i"). */
function senders() {
  return Array.from({length: txsPerBlock}, (_, i) => {
    const privateKey = keccak256(utf8ToBytes(`bench-sender-${i}`));
    return {privateKey, address: keccak256(publicKeyOf(privateKey)).subarray(12), nonce: 0n};
  });
}

function sign(from, values) {
  return Transaction.sign(
    {gasPrice: 0n, value: 0n, data: EMPTY, ...values, nonce: from.nonce++},
    from.privateKey,
    chainId,
  );
}

function freshAddress(n, i) {
  return keccak256(utf8ToBytes(`recipient-${n}-${i}`)).subarray(12);
}

function uint256(value) {
  const out = new Uint8Array(32);
  let v = BigInt(value);
  for (let i = 31; v > 0n; i--, v >>= 8n) out[i] = Number(v & 0xffn);
  return out;
}

/** Setup blocks fund the senders (and deploy the token); measured blocks each carry `txsPerBlock` transfers. */
async function buildChain(kind) {
  const builder = await ChainBuilder.create({
    chainspec,
    genesis: regtestGenesis,
    difficulty: (h, p) => calculateDifficulty(h, p, chainspec),
  });
  const cow = {...cowAccounts()[0], nonce: 0n};
  const from = senders();
  const blocks = [];
  let token;
  let transferSelector;
  const tokenTransfer = (to, amount) => concatBytes(transferSelector, new Uint8Array(12), to, uint256(amount));
  if (kind === "transfer") {
    blocks.push(
      await builder.buildBlock({
        transactions: from.map((s) => sign(cow, {gasLimit: 21_000n, to: s.address, value: 10n ** 21n})),
      }),
    );
  } else {
    const {bytecode, selectors} = compileSolidity(TOKEN).Token;
    const deploy = sign(cow, {gasLimit: 1_000_000n, data: bytecode});
    blocks.push(await builder.buildBlock({transactions: [deploy]}));
    // The token's address: keccak(rlp([deployer, nonce 0])).
    token = keccak256(concatBytes(Uint8Array.of(0xd6, 0x94), cow.address, Uint8Array.of(0x80))).subarray(12);
    transferSelector = selectors["transfer(address,uint256)"];
    blocks.push(
      await builder.buildBlock({
        transactions: from.map((s) =>
          sign(cow, {gasLimit: 100_000n, to: token, data: tokenTransfer(s.address, 10n ** 24n)}),
        ),
      }),
    );
  }
  const setup = blocks.length;
  for (let n = 0; n < blockCount; n++) {
    const txs = from.map((s, i) =>
      kind === "transfer"
        ? sign(s, {gasLimit: 21_000n, to: freshAddress(n, i), value: 1n})
        : sign(s, {gasLimit: 100_000n, to: token, data: tokenTransfer(freshAddress(n, i), 1n)}),
    );
    blocks.push(await builder.buildBlock({transactions: txs}));
  }
  return {encoded: blocks.map((b) => b.encode()), setup};
}

/** Decode + sender recovery of every measured transaction, from the block bytes: the floor. */
function recoveryRate(encoded, setup) {
  const start = process.hrtime.bigint();
  let count = 0;
  for (const bytes of encoded.slice(setup)) {
    const block = Block.decode(bytes, {rules: chainspec, chainId});
    for (const tx of block.transactions.slice(0, -1)) {
      tx.sender();
      count++;
    }
  }
  return count / (Number(process.hrtime.bigint() - start) / 1e9);
}

/** The measured blocks' transaction count, REMASC excluded. */
function txsPerBlockOf(bytes) {
  return Block.decode(bytes, {rules: chainspec, chainId}).transactions.length - 1;
}

async function importChain(encoded, setup) {
  const dir = mkdtempSync(join(tmpdir(), "xchain-bench-import-"));
  const store = await LevelStore.open(dir);
  try {
    const chain = await Chain.open({store, chainspec, genesis: regtestGenesis});
    for (const bytes of encoded.slice(0, setup)) await chain.importBlock(bytes);
    let gas = 0n;
    const start = process.hrtime.bigint();
    for (const bytes of encoded.slice(setup)) {
      const result = await chain.importBlock(bytes);
      if (result.kind !== "IMPORTED_BEST")
        throw new Error(`import failed: ${result.kind} ${result.error?.message ?? ""}`);
      const header = chain.head().header;
      gas += header.gasUsed;
    }
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    return {
      seconds,
      blocks: encoded.length - setup,
      txs: (encoded.length - setup) * txsPerBlockOf(encoded[setup]),
      gas,
    };
  } finally {
    await store.close();
    rmSync(dir, {recursive: true, force: true});
  }
}

if (process.argv[2] === "--import") await importChild(process.argv[3], Number(process.argv[4]));

console.log(`secp256k1 backend: ${secp256k1Backend}; ${blockCount} blocks x ${txsPerBlock} transactions`);
const workDir = mkdtempSync(join(tmpdir(), "xchain-bench-import-"));
try {
  for (const kind of which === "both" ? ["transfer", "erc20"] : [which]) {
    const buildStart = Date.now();
    const {encoded, setup} = await buildChain(kind);
    console.log(`\n[${kind}] built ${encoded.length} blocks in ${((Date.now() - buildStart) / 1000).toFixed(1)} s`);
    const file = join(workDir, `${kind}.txt`);
    writeFileSync(file, encoded.map(bytesToHex).join("\n"));
    const recovery = recoveryRate(encoded, setup);
    const r = JSON.parse(
      execFileSync(process.execPath, [...process.execArgv, import.meta.filename, "--import", file, String(setup)], {
        encoding: "utf8",
      }),
    );
    const txRate = r.txs / r.seconds;
    console.log(
      `[${kind}] import:          ${(r.blocks / r.seconds).toFixed(1)} blocks/s, ${Math.round(txRate)} tx/s, ${(r.gas / 1e6 / r.seconds).toFixed(1)} Mgas/s (${r.seconds.toFixed(1)} s)`,
    );
    console.log(
      `[${kind}] sender recovery: ${Math.round(recovery)} tx/s (decode + recover alone); import / recovery = ${(txRate / recovery).toFixed(2)}`,
    );
    console.log(`[${kind}] import peak RSS: ${r.peakRssMb} MB`);
  }
} finally {
  rmSync(workDir, {recursive: true, force: true});
}

/** The child: imports the file's blocks into a fresh data directory and prints its figures as JSON. */
async function importChild(file, setup) {
  const encoded = readFileSync(file, "utf8").split("\n").map(hexToBytes);
  const r = await importChain(encoded, setup);
  console.log(JSON.stringify({...r, gas: Number(r.gas), peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024)}));
  process.exit(0);
}
