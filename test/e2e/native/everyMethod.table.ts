// Every method of every native contract's ABI, with the arguments everyMethod.test.ts calls it with
// and what a fresh regtest node answers (docs/protocol/native-contracts.md §3–§5, §10.2, §10.3, §11.6;
// rskj's flags and prices from the spec's Bridge method table). Rows are keyed by signature; the test
// enumerates the ABIs and fails on a function without a row or a row without a function.
import abis from "@rsksmart/rsk-precompiled-abis";
import {
  bitcoinTxid,
  buildPartialMerkleTree,
  p2shOutputScript,
  parseBitcoinTransaction,
  serializeBitcoinTransaction,
} from "@xchain/merged-mining";
import {BLOCK_HEADER_ABI, ENVIRONMENT_ABI, REMASC_ABI} from "@xchain/test-utils";
import {bytesToPrefixedHex, sha256d} from "@xchain/utils";
import {encodeRlp, Interface, id, SigningKey, toBeHex, toQuantity} from "ethers";
import {blockHeaderFields} from "../support/blockHeaderFields.ts";
import {rpc} from "../support/jsonRpc.ts";
import {
  BTC_REGTEST_GENESIS_HASH,
  BTC_REGTEST_GENESIS_HEADER,
  btcAddress,
  hdWalletVectors,
  plainKey,
} from "../support/nativeNode.ts";

/** What one way of reaching a method gives: a failure (rskj's exceptional halt), or its decoded answer. */
export type Outcome = {readonly fails: true} | {readonly value: unknown};
export const FAILS: Outcome = {fails: true};
/** The answer of a method with one output, or `undefined` for a void method (no output bytes). */
export const answers = (value: unknown): Outcome => ({value});
const VOID = answers(undefined);

/** The ways the test reaches each method. */
export type Path = "call" | "contractCall" | "staticCall" | "transaction" | "contractTransaction" | "staticTransaction";
export const TRANSACTION_PATHS: ReadonlySet<Path> = new Set([
  "transaction",
  "contractTransaction",
  "staticTransaction",
]);
export const STATIC_PATHS: ReadonlySet<Path> = new Set(["staticCall", "staticTransaction"]);

/** Where a call or transaction runs: the block it executes in and the node's URL. */
export interface Context {
  /** The executing block: the eth_call's block, or the block a transaction was mined in. */
  block: number;
  /** The block whose state the message starts from: the eth_call's own, the mined block's parent. */
  stateBlock: number;
  url: string;
}

type Expected = Outcome | ((context: Context) => Promise<Outcome>);

/** One method's case. */
export interface MethodRow {
  readonly args: readonly unknown[];
  /** What the method answers wherever the rules below let it run. */
  readonly answer: Expected;
  /** A different answer on some paths (the sender or the signature matters). */
  readonly on?: Partial<Record<Path, Expected>>;
  /** Bridge column L: fails in every mined transaction, direct or through a contract (§10.1 item 3). */
  readonly localOnly?: boolean;
  /** Bridge column C: a STATICCALL fails (RSKIP-417). */
  readonly callOnly?: boolean;
  /** The gas a transaction sent to the contract pays beyond its intrinsic gas (§2.1, §10.1). */
  readonly price: (data: Uint8Array) => bigint;
  /** The events of a mined transaction, direct or through the probe contract: [name, ...args], by the sender. */
  readonly events?: Partial<Record<"transaction" | "contractTransaction", (sender: string) => unknown[][]>>;
  /** Why xchain does not run the method (docs/protocol/native-contracts.md §10.2): it fails everywhere. */
  readonly notImplemented?: string;
}

/** A native contract: its address, its ABI and a row for each of the ABI's functions. */
export interface NativeContractTable {
  readonly name: string;
  readonly address: string;
  readonly abi: Interface;
  readonly rows: Readonly<Record<string, MethodRow>>;
}

/** The outcome `row` has on `path`: the dispatch rules first, then the row's own answers. */
export function expectedOn(row: MethodRow, path: Path): Expected {
  if (row.notImplemented) return FAILS;
  if (row.callOnly && STATIC_PATHS.has(path)) return FAILS;
  if (row.localOnly && TRANSACTION_PATHS.has(path)) return FAILS;
  return row.on?.[path] ?? row.answer;
}

// ---- prices ----
/** A Bridge method's price plus 2 gas per input byte (§10.1 item 1). */
const bridgePrice =
  (price: number) =>
  (data: Uint8Array): bigint =>
    BigInt(price) + 2n * BigInt(data.length);
/** Input that names no method of the Bridge: releaseBtc's 23,000, no per-byte charge. */
const UNPARSEABLE = 23_000n;
const fixedPrice = (price: number) => (): bigint => BigInt(price);

// ---- the Bridge (§10) ----
const GENESIS_KEYS = [
  "0x02cd53fc53a07f211641a677d250f6de99caf620e8e77071e811a28b3bcddf0be1",
  "0x0362634ab57dae9cb373a5d536e66a8c4f67468bbcfb063809bab643072d78a124",
  "0x03c5946b3fbae03a654237da863c9ed534e0878657175b132b8ca630f245df04db",
];
/** rskj 9.0.3's regtest federation: OP_2 <the three keys> OP_3 OP_CHECKMULTISIG. */
const REDEEM_SCRIPT = `0x52${GENESIS_KEYS.map((k) => `21${k.slice(2)}`).join("")}53ae`;
/** The genesis block's merkle root in display order: the single transaction of the block. */
const BTC_GENESIS_MERKLE_ROOT = "0x4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b";
const WHITELIST_ADDRESS = btcAddress(new SigningKey(id("whitelisted")));
const TX_HASH_HEX = "ab".repeat(32);
const UNAUTHORIZED = answers(-10n);

/** A Bitcoin transaction and its one-transaction partial merkle tree: well formed, never confirmed. */
const unconfirmedBtcTransaction = (() => {
  const tx = serializeBitcoinTransaction({
    version: 1,
    inputs: [
      {prevTxid: sha256d(Uint8Array.of(1)), prevIndex: 0, script: Uint8Array.of(0), sequence: 0xffffffff, witness: []},
    ],
    outputs: [{value: 1_000_000n, script: p2shOutputScript(new Uint8Array(20))}],
    lockTime: 0,
  });
  const pmt = buildPartialMerkleTree([bitcoinTxid(parseBitcoinTransaction(tx))], 0).serialized;
  return {tx: bytesToPrefixedHex(tx), pmt: bytesToPrefixedHex(pmt)};
})();

interface BridgeOptions {
  localOnly?: boolean;
  callOnly?: boolean;
  on?: MethodRow["on"];
  events?: MethodRow["events"];
}
/** A Bridge method of the spec's table: its price, flags (L, C) and fresh answer. */
const bridge = (price: number, args: unknown[], answer: Expected, options: BridgeOptions = {}): MethodRow => ({
  args,
  answer,
  price: bridgePrice(price),
  ...options,
});
/** A local-only getter (column L, C/S). */
const local = (price: number, args: unknown[], value: unknown) =>
  bridge(price, args, answers(value), {localOnly: true});
/** A getter that also works in mined transactions (C/S). */
const getter = (price: number, args: unknown[], value: unknown) => bridge(price, args, answers(value));
/** A vote an unauthorized sender (an account or a contract) casts: the -10 code, CALL only. */
const vote = (price: number, args: unknown[]) => bridge(price, args, UNAUTHORIZED, {callOnly: true});
/** A method xchain does not run: unparseable input everywhere. */
const missing = (args: unknown[], why: string): MethodRow => ({
  args,
  answer: FAILS,
  price: () => UNPARSEABLE,
  notImplemented: why,
});

const DISABLED = "disabled on regtest by an active RSKIP, as in rskj";
const UNION = "the union bridge (RSKIP-502), out of scope";
const COINBASE = "the registration of a coinbase's witness root, RSKIP-143 (§10.5 item 5)";

const bridgeRows: Record<string, MethodRow> = {
  // Federations (§10.3).
  "getFederationAddress()": local(11_000, [], "2N5muMepJizJE1gR7FbHJU6CD18V3BpNF9p"),
  "getFederationSize()": local(10_000, [], 3n),
  "getFederationThreshold()": local(11_000, [], 2n),
  "getFederationCreationTime()": local(10_000, [], 1_451_606_400n),
  "getFederationCreationBlockNumber()": local(10_000, [], 1n),
  "getFederatorPublicKeyOfType(int256,string)": local(10_000, [1, "rsk"], GENESIS_KEYS[1]),
  "getActiveFederationCreationBlockHeight()": getter(3_000, [], 0n),
  "getActivePowpegRedeemScript()": getter(30_000, [], REDEEM_SCRIPT),
  "getRetiringFederationAddress()": local(3_000, [], ""),
  "getRetiringFederationSize()": local(3_000, [], -1n),
  "getRetiringFederationThreshold()": local(3_000, [], -1n),
  "getRetiringFederationCreationTime()": local(3_000, [], -1n),
  "getRetiringFederationCreationBlockNumber()": local(3_000, [], -1n),
  "getRetiringFederatorPublicKeyOfType(int256,string)": local(3_000, [0, "btc"], "0x"),
  "getPendingFederationHash()": local(3_000, [], "0x"),
  "getPendingFederationSize()": local(3_000, [], -1n),
  "getPendingFederatorPublicKeyOfType(int256,string)": local(3_000, [0, "mst"], "0x"),
  "getProposedFederationAddress()": local(3_000, [], ""),
  "getProposedFederationSize()": local(3_000, [], -1n),
  "getProposedFederationCreationTime()": local(3_000, [], -1n),
  "getProposedFederationCreationBlockNumber()": local(3_000, [], -1n),
  "getProposedFederatorPublicKeyOfType(int256,string)": local(3_000, [0, "btc"], "0x"),
  // Constants, processed transactions, the whitelist, peg-outs.
  "getFeePerKb()": local(2_000, [], 100_000n),
  "getMinimumLockTxValue()": local(2_000, [], 500_000n),
  "getLockingCap()": local(3_000, [], 100_000_000_000n),
  "isBtcTxHashAlreadyProcessed(string)": local(23_000, [TX_HASH_HEX], false),
  "getBtcTxHashProcessedHeight(string)": local(22_000, [TX_HASH_HEX], -1n),
  "getLockWhitelistSize()": local(16_000, [], 0n),
  "getLockWhitelistAddress(int256)": local(16_000, [0], ""),
  "getLockWhitelistEntryByAddress(string)": local(16_000, [WHITELIST_ADDRESS], -1n),
  "getQueuedPegoutsCount()": getter(3_000, [], 0n),
  "getNextPegoutCreationBlockNumber()": getter(3_000, [], 0n),
  "getEstimatedFeesForNextPegOutEvent()": getter(10_000, [], 65_400n),
  "getStateForDebugging()": local(3_000_000, [], "0xcb8081c081c081c081c08180"),
  "getStateForBtcReleaseClient()": local(4_000, [], "0xc1c0"),
  "getStateForSvpClient()": local(4_000, [], "0xc1c0"),
  // The light client at Bitcoin regtest's genesis (§10.5).
  "getBtcBlockchainBestChainHeight()": getter(19_000, [], 0n),
  "getBtcBlockchainInitialBlockHeight()": local(20_000, [], 0n),
  "getBtcBlockchainBlockHashAtDepth(int256)": local(20_000, [0], BTC_REGTEST_GENESIS_HASH),
  "getBtcBlockchainBestBlockHeader()": getter(3_800, [], BTC_REGTEST_GENESIS_HEADER),
  "getBtcBlockchainBlockHeaderByHash(bytes32)": getter(4_600, [BTC_REGTEST_GENESIS_HASH], BTC_REGTEST_GENESIS_HEADER),
  "getBtcBlockchainBlockHeaderByHeight(uint256)": getter(5_000, [0], BTC_REGTEST_GENESIS_HEADER),
  "getBtcBlockchainParentBlockHeaderByHash(bytes32)": getter(4_900, [BTC_REGTEST_GENESIS_HASH], "0x"),
  // The genesis block's only transaction, proven by an empty branch: 1 confirmation (best 0 − height 0 + 1).
  "getBtcTransactionConfirmations(bytes32,bytes32,uint256,bytes32[])": getter(
    27_000,
    [BTC_GENESIS_MERKLE_ROOT, BTC_REGTEST_GENESIS_HASH, 0, []],
    1n,
  ),
  // Nothing registered by registerBtcCoinbaseTransaction (RSKIP-143).
  "hasBtcBlockCoinbaseTransactionInformation(bytes32)": getter(5_000, [BTC_REGTEST_GENESIS_HASH], false),
  // The genesis header is already stored: -4, and nothing changes.
  "receiveHeader(bytes)": bridge(10_600, [BTC_REGTEST_GENESIS_HEADER], answers(-4n), {callOnly: true}),
  // Only a federator may send headers in bulk (one header: 25,000).
  "receiveHeaders(bytes[])": bridge(25_000, [[BTC_REGTEST_GENESIS_HEADER]], FAILS, {callOnly: true}),
  // Fewer than 3 confirmations at height 0: ignored, a success with no trace (§10.6 item 1).
  "registerBtcTransaction(bytes,int256,bytes)": bridge(
    22_000,
    [unconfirmedBtcTransaction.tx, 0, unconfirmedBtcTransaction.pmt],
    VOID,
    {callOnly: true},
  ),
  // No value: below the minimum, refunded (nothing) and rejected as LOW_AMOUNT; a contract is refused as
  // CALLER_CONTRACT before the signature matters; an eth_call has no signature to name a Bitcoin key (§10.7).
  "releaseBtc()": bridge(23_000, [], VOID, {
    callOnly: true,
    on: {call: FAILS},
    events: {
      transaction: (sender) => [["release_request_rejected", sender, 0n, 1n]],
      contractTransaction: (sender) => [["release_request_rejected", sender, 0n, 2n]],
    },
  }),
  // Votes by a sender that is no authorizer (§10.2).
  "createFederation()": vote(11_000, []),
  "addFederatorPublicKeyMultikey(bytes,bytes,bytes)": vote(13_000, [GENESIS_KEYS[0], GENESIS_KEYS[0], GENESIS_KEYS[0]]),
  "commitFederation(bytes)": vote(38_000, [`0x${"11".repeat(32)}`]),
  "rollbackFederation()": vote(12_000, []),
  "addOneOffLockWhitelistAddress(string,int256)": vote(25_000, [WHITELIST_ADDRESS, 1_000_000]),
  "addUnlimitedLockWhitelistAddress(string)": vote(25_000, [WHITELIST_ADDRESS]),
  "removeLockWhitelistAddress(string)": vote(24_000, [WHITELIST_ADDRESS]),
  "setLockWhitelistDisableBlockDelay(int256)": vote(24_000, [100]),
  "voteFeePerKbChange(int256)": vote(10_000, [200_000]),
  "increaseLockingCap(int256)": bridge(8_000, [200_000_000_000n], answers(false), {callOnly: true}),
  // The federators' methods: parsed and priced as rskj does; a sender that is no federator fails (§10.8).
  "updateCollections()": bridge(48_000, [], FAILS, {callOnly: true}),
  "addSignature(bytes,bytes[],bytes)": bridge(
    70_000,
    [GENESIS_KEYS[0], ["0x3006020101020101"], `0x${"22".repeat(32)}`],
    FAILS,
    {callOnly: true},
  ),
  // What xchain does not run.
  "addFederatorPublicKey(bytes)": missing([GENESIS_KEYS[0]], DISABLED),
  "addLockWhitelistAddress(string,int256)": missing([WHITELIST_ADDRESS, 1_000_000], DISABLED),
  "getFederatorPublicKey(int256)": missing([0], DISABLED),
  "getPendingFederatorPublicKey(int256)": missing([0], DISABLED),
  "getRetiringFederatorPublicKey(int256)": missing([0], DISABLED),
  "registerBtcCoinbaseTransaction(bytes,bytes32,bytes,bytes32,bytes32)": missing(
    [
      unconfirmedBtcTransaction.tx,
      BTC_REGTEST_GENESIS_HASH,
      unconfirmedBtcTransaction.pmt,
      `0x${"00".repeat(32)}`,
      `0x${"00".repeat(32)}`,
    ],
    COINBASE,
  ),
  "registerFastBridgeBtcTransaction(bytes,uint256,bytes,bytes32,bytes,address,bytes,bool)": missing(
    [
      unconfirmedBtcTransaction.tx,
      0,
      unconfirmedBtcTransaction.pmt,
      `0x${"00".repeat(32)}`,
      "0x",
      `0x${"00".repeat(20)}`,
      "0x",
      false,
    ],
    "Flyover (RSKIP-176), out of scope",
  ),
  "getUnionBridgeContractAddress()": missing([], UNION),
  "getUnionBridgeLockingCap()": missing([], UNION),
  "increaseUnionBridgeLockingCap(uint256)": missing([1], UNION),
  "releaseUnionBridgeRbtc()": missing([], UNION),
  "requestUnionBridgeRbtc(uint256)": missing([1], UNION),
  "setUnionBridgeContractAddressForTestnet(address)": missing([`0x${"00".repeat(20)}`], UNION),
  "setUnionBridgeTransferPermissions(bool,bool)": missing([true, true], UNION),
};

// ---- HDWalletUtils (§5): the first of each of rskj's vectors ----
const hd = hdWalletVectors();
const [base58, derive, extract, multisig] = [
  hd.toBase58Check[0]!,
  hd.deriveExtendedPublicKey[0]!,
  hd.extractPublicKeyFromExtendedPublicKey[0]!,
  hd.getMultisigScriptHash[0]!,
];
/** A NativeContract method (§2.5): no call-type or local rule, the same answer on every path. */
const native = (price: MethodRow["price"], args: unknown[], answer: Expected): MethodRow => ({args, answer, price});

const hdWalletRows: Record<string, MethodRow> = {
  "toBase58Check(bytes,int256)": native(fixedPrice(13_000), [base58.hash, base58.version], answers(base58.result)),
  "deriveExtendedPublicKey(string,string)": native(
    fixedPrice(107_000),
    [derive.xpub, derive.path],
    answers(derive.result),
  ),
  "extractPublicKeyFromExtendedPublicKey(string)": native(fixedPrice(11_300), [extract.xpub], answers(extract.result)),
  "getMultisigScriptHash(int256,bytes[])": native(
    fixedPrice(20_000 + 700 * Math.max(0, multisig.keys.length - 2)),
    [multisig.minimumSignatures, multisig.keys],
    answers(multisig.result),
  ),
};

// ---- BlockHeader (§3): depth 0, the executing block's parent ----
const headerPrice = (data: Uint8Array): bigint => 4_000n + 2n * BigInt(data.length);
const field =
  (method: string) =>
  async ({url, block}: Context): Promise<Outcome> =>
    answers((await blockHeaderFields(url, block - 1))[method]);
const blockHeaderRows: Record<string, MethodRow> = Object.fromEntries(
  [
    "getCoinbaseAddress",
    "getBlockHash",
    "getMergedMiningTags",
    "getMinGasPrice",
    "getGasLimit",
    "getGasUsed",
    "getDifficulty",
    "getBitcoinHeader",
    "getDifficultyWithUncles",
    "getCumulativeWork",
  ].map((method) => [`${method}(int256)`, native(headerPrice, [0], field(method))]),
);
// No uncles on this chain: empty bytes.
blockHeaderRows["getUncleCoinbaseAddress(int256,int256)"] = native(headerPrice, [0, 0], answers("0x"));

// ---- REMASC (§11.6) ----
const REMASC = "0x0000000000000000000000000000000001000008";
/** RLP [rewardBalance, burnedBalance, [], brokenSelectionRule], read from REMASC's storage (§11.2). */
async function remascState({url, stateBlock}: Context): Promise<Outcome> {
  const read = async (name: string) =>
    BigInt(await rpc<string>(url, "eth_getStorageAt", [REMASC, plainKey(name), toQuantity(stateBlock)]));
  const [reward, burned, broken] = await Promise.all(
    ["rewardBalance", "burnedBalance", "brokenSelectionRule"].map(read),
  );
  const rlpInteger = (value: bigint) => (value === 0n ? "0x" : toBeHex(value));
  return answers(encodeRlp([rlpInteger(reward!), rlpInteger(burned!), [], broken ? "0x01" : "0x00"]));
}
const remascRows: Record<string, MethodRow> = {
  // Only the block's own REMASC transaction runs it, never a message.
  "processMinersFees()": native(fixedPrice(0), [], FAILS),
  "getStateForDebugging()": native(fixedPrice(0), [], remascState),
};

export const NATIVE_CONTRACTS: readonly NativeContractTable[] = [
  {name: "Bridge", address: abis.bridge.address, abi: new Interface(abis.bridge.abi), rows: bridgeRows},
  {name: "REMASC", address: REMASC, abi: new Interface(REMASC_ABI), rows: remascRows},
  {
    name: "HDWalletUtils",
    address: abis.hdWalletUtils.address,
    abi: new Interface(abis.hdWalletUtils.abi),
    rows: hdWalletRows,
  },
  {
    name: "BlockHeader",
    address: "0x0000000000000000000000000000000001000010",
    abi: new Interface(BLOCK_HEADER_ABI),
    rows: blockHeaderRows,
  },
  {
    name: "Environment",
    address: "0x0000000000000000000000000000000001000011",
    abi: new Interface(ENVIRONMENT_ABI),
    // The depth of the calling frame + 1: 1 to an account and to the transaction's own contract (§4).
    rows: {"getCallStackDepth()": native(fixedPrice(0), [], answers(1n))},
  },
];
