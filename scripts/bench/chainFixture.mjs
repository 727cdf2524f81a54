// The chain of the import benchmark (import.mjs; its builder helpers serve sync/ and storage/ too): a regtest chain built with the test
// chain builder (real merged-mining proofs, the REMASC transaction closing every block) whose
// measured blocks each carry `txsPerBlock` value transfers (or ERC-20 `transfer`s) from
// `txsPerBlock` senders to fresh addresses, and the import measurement: a fresh child process
// imports the chain, from raw block bytes, into a fresh LevelDB store through full validation
// (`Chain.open` + `importBlock`, regtest genesis) and reports its time and peak RSS.
//
// With `pipeline`, the child imports as `xchain db import` does: each block decoded ahead and its senders
// recovered in a worker thread while the blocks before it import (`recoverAhead`, docs/performance.md §3).
//
// The child is this module run as a script: node chainFixture.mjs --import|--import-pipeline <file> <setup> [<dbDir>]
import {execFileSync} from "node:child_process";
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {
  Chain,
  decodeForImport,
  defaultChainOptions,
  recoverAhead,
  SenderRecovery,
  transactionsOfBlock,
} from "@xchain/chain";
import {getChainspec, regtestGenesis} from "@xchain/chainspec";
import {calculateDifficulty} from "@xchain/consensus";
import {LevelStore} from "@xchain/db";
import {Block, Transaction} from "@xchain/primitives";
import {defaultStateOptions, StateDatabase} from "@xchain/state";
import {ChainBuilder, compileSolidity, cowAccounts} from "@xchain/test-utils";
import {bytesToHex, concatBytes, hexToBytes, keccak256, publicKeyOf, utf8ToBytes} from "@xchain/utils";
import {SOLIDITY_HEADER, TOKEN_CONTRACT} from "./token.mjs";

export const chainspec = getChainspec("regtest");
export const chainId = chainspec.params.chainId;
const EMPTY = new Uint8Array(0);

const TOKEN = `${SOLIDITY_HEADER}${TOKEN_CONTRACT}`;

/** `count` accounts to send from: key i is keccak("<prefix>-i"); each tracks its next nonce. */
export function keyedAccounts(prefix, count) {
  return Array.from({length: count}, (_, i) => {
    const privateKey = keccak256(utf8ToBytes(`${prefix}-${i}`));
    return {privateKey, address: keccak256(publicKeyOf(privateKey)).subarray(12), nonce: 0n};
  });
}

/** `txsPerBlock` senders: key i is keccak("bench-sender-i"). */
function senders(txsPerBlock) {
  return keyedAccounts("bench-sender", txsPerBlock);
}

/** A transaction from `from` at its next nonce (which it advances), gas price 0 unless `values` says. */
export function sign(from, values) {
  return Transaction.sign(
    {gasPrice: 0n, value: 0n, data: EMPTY, ...values, nonce: from.nonce++},
    from.privateKey,
    chainId,
  );
}

function freshAddress(n, i) {
  return keccak256(utf8ToBytes(`recipient-${n}-${i}`)).subarray(12);
}

/** `value` as a 32-byte big-endian ABI word. */
export function uint256(value) {
  const out = new Uint8Array(32);
  let v = BigInt(value);
  for (let i = 31; v > 0n; i--, v >>= 8n) out[i] = Number(v & 0xffn);
  return out;
}

/** A regtest chain builder (real merged-mining proofs) whose state lives in `store` (default in memory). */
export function createBuilder(store) {
  return ChainBuilder.create({
    chainspec,
    genesis: regtestGenesis,
    difficulty: (h, p) => calculateDifficulty(h, p, chainspec),
    ...(store === undefined ? {} : {store}),
  });
}

/** The first regtest "cow" account, funded at genesis, as a sender from nonce 0. */
export function fundedAccount() {
  return {...cowAccounts()[0], nonce: 0n};
}

/** The address of the contract `deployer` creates at `nonce` (< 128): keccak(rlp([deployer, nonce])). */
export function contractAddress(deployer, nonce) {
  const encodedNonce = nonce === 0 ? 0x80 : nonce;
  return keccak256(concatBytes(Uint8Array.of(0xd6, 0x94), deployer, Uint8Array.of(encodedNonce))).subarray(12);
}

/**
 * Builds `setup` blocks that fund the senders (and deploy the token for "erc20"), then `blockCount`
 * measured blocks of `txsPerBlock` transfers each ("transfer": value transfers, "erc20": token
 * transfers). Returns every block's encoding, oldest first, and `setup`.
 */
export async function buildChain({kind = "transfer", blockCount, txsPerBlock}) {
  const builder = await createBuilder();
  const cow = fundedAccount();
  const from = senders(txsPerBlock);
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
    token = contractAddress(cow.address, 0);
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

/** A block's transaction count, REMASC excluded. */
export function txCountOf(bytes) {
  return Block.decode(bytes, {rules: chainspec, chainId}).transactions.length - 1;
}

/** Writes the chain to `file`, one block's hex encoding a line. */
export function writeChain(file, encoded) {
  writeFileSync(file, encoded.map(bytesToHex).join("\n"));
}

/**
 * Imports the chain in `file` (written by writeChain) in a fresh child process: the `setup` blocks
 * first, then the measured ones, timed. Into a temporary store removed afterwards, or into the
 * LevelDB store at `dbDir`, which is kept (a node's data directory keeps it at <datadir>/db).
 * With `pipeline`, senders are recovered ahead in a worker thread (`recoverAhead`, as `xchain db import`).
 * Returns {seconds, cpuSeconds, mainThreadCpuSeconds, blocks, txs, gas, peakRssMb} of the measured blocks
 * (cpuSeconds: the child's user + system time over them, all its threads; mainThreadCpuSeconds: its main
 * thread's alone, read from /proc on Linux, else null: the critical path when another core is free).
 */
export function measureImport(file, setup, {dbDir, pipeline = false} = {}) {
  const mode = pipeline ? "--import-pipeline" : "--import";
  const args = [...process.execArgv, import.meta.filename, mode, file, String(setup)];
  if (dbDir !== undefined) args.push(dbDir);
  return JSON.parse(execFileSync(process.execPath, args, {encoding: "utf8"}));
}

/** The main thread's user + system time in seconds (Linux: /proc/self/task/<pid>/stat), or null elsewhere. */
export function mainThreadCpuSeconds() {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    // The fields after the command name (which may hold spaces), from field 3: utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** The measured blocks as the import takes them: raw bytes, or decoded with their senders recovered ahead. */
function measuredBlocks(encoded, recovery) {
  if (!recovery) return encoded;
  const decoded = (function* () {
    for (const bytes of encoded) yield decodeForImport(bytes, chainspec);
  })();
  return recoverAhead(decoded, recovery, {lookahead: 8, transactionsOf: transactionsOfBlock});
}

async function importChain(encoded, setup, dbDir, pipeline) {
  const dir = dbDir ?? mkdtempSync(join(tmpdir(), "xchain-bench-import-"));
  const store = await LevelStore.open(dir);
  const recovery = pipeline ? new SenderRecovery() : undefined;
  try {
    // XCHAIN_FLAT_STATE=false: the chain without its flat state (docs/performance.md §26 compares).
    const flatState = process.env.XCHAIN_FLAT_STATE !== "false";
    const state = new StateDatabase({...defaultStateOptions, flatState}, {store});
    const chain = await Chain.open(defaultChainOptions, {store, chainspec, genesis: regtestGenesis, state});
    for (const bytes of encoded.slice(0, setup)) await chain.importBlock(bytes);
    let gas = 0n;
    const start = process.hrtime.bigint();
    const cpuStart = process.cpuUsage();
    const mainStart = mainThreadCpuSeconds();
    for await (const bytes of measuredBlocks(encoded.slice(setup), recovery)) {
      const result = await chain.importBlock(bytes);
      if (result.kind !== "IMPORTED_BEST")
        throw new Error(`import failed: ${result.kind} ${result.error?.message ?? ""}`);
      const header = chain.head().header;
      gas += header.gasUsed;
    }
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const cpu = process.cpuUsage(cpuStart);
    const mainEnd = mainThreadCpuSeconds();
    return {
      mainThreadCpuSeconds: mainStart === null || mainEnd === null ? null : mainEnd - mainStart,
      seconds,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      blocks: encoded.length - setup,
      txs: (encoded.length - setup) * txCountOf(encoded[setup]),
      gas,
    };
  } finally {
    await recovery?.close();
    await store.close();
    if (dbDir === undefined) rmSync(dir, {recursive: true, force: true});
  }
}

/** The child: imports the file's blocks and prints its figures as JSON. */
async function importChild(file, setup, dbDir, pipeline) {
  const encoded = readFileSync(file, "utf8").split("\n").map(hexToBytes);
  const r = await importChain(encoded, setup, dbDir, pipeline);
  console.log(JSON.stringify({...r, gas: Number(r.gas), peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024)}));
  process.exit(0);
}

const mode = process.argv[2];
if (process.argv[1] === import.meta.filename && (mode === "--import" || mode === "--import-pipeline")) {
  await importChild(process.argv[3], Number(process.argv[4]), process.argv[5], mode === "--import-pipeline");
}
