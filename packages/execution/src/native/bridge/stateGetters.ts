/**
 * The Bridge's other getters (docs/protocol/native-contracts.md §6.2, §6.3): fee per kb, locking
 * cap, lock minimum, processed Bitcoin transactions, the lock whitelist, the peg-out queue, the
 * light client's chain as stored (fresh: Bitcoin's genesis at height 0), and the state snapshots.
 */
import {RLP} from "@ethereumjs/rlp";
import {bytesToHex, hexToBytesOrNull, reverseBytes} from "@xchain/utils";
import {type AbiValue, abiFunction} from "../dispatch/abi.ts";
import {type BridgeCall, type BridgeMethod, bridgeFailure, price} from "./call.ts";
import {estimatedPegoutFees} from "./pegoutFees.ts";
import {decodePegoutsWaitingForSignatures, rskTxHashOrder} from "./serialization.ts";
import {encodeStateForDebugging} from "./state.ts";
import {BridgeKey, plainKey} from "./storageKeys.ts";

const EMPTY = new Uint8Array(0);

function getter(
  name: string,
  inputs: string[],
  output: string,
  gas: number,
  localOnly: boolean,
  run: BridgeMethod["run"],
): BridgeMethod {
  return {fn: abiFunction(name, inputs, [output]), gas: price(gas), localOnly, acceptsStaticCall: true, run};
}

/**
 * A getter of the light client's chain: rskj opens the block store first, which stores the genesis
 * when nothing is stored (`checkIfInitialized`), so a mined call writes it.
 */
function chainGetter(
  name: string,
  inputs: string[],
  output: string,
  gas: number,
  localOnly: boolean,
  run: BridgeMethod["run"],
): BridgeMethod {
  return getter(name, inputs, output, gas, localOnly, async (args, call) => {
    await call.storage.ensureBtcBlockStore();
    return run(args, call);
  });
}

/** A Bitcoin tx hash given as a string: 64 hex digits, display order, no 0x (`Sha256Hash.wrap`). */
function txHashArgument(method: string, value: AbiValue): Uint8Array {
  const text = value as string;
  const hash = text.length === 64 ? hexToBytesOrNull(text) : null;
  if (!hash) throw bridgeFailure(method, `"${text}" is not a 64-digit hex transaction hash`);
  return hash;
}

/** The lock whitelist, which xchain never writes (its votes are not implemented): empty, or a failure. */
async function emptyWhitelist(call: BridgeCall, method: string): Promise<void> {
  for (const key of [BridgeKey.lockWhitelist, BridgeKey.unlimitedLockWhitelist]) {
    if ((await call.storage.get(key)).length > 0) {
      throw bridgeFailure(method, "the stored lock whitelist is not read by xchain (no whitelist votes)");
    }
  }
}

/** The stored block `depth` below the head along the main chain index, or a failure. */
async function blockAtDepth(call: BridgeCall, method: string, depth: bigint): Promise<Uint8Array> {
  const head = await call.storage.chainHead();
  const initial = 0n;
  if (depth < 0n || depth > BigInt(head.height) - initial) {
    throw bridgeFailure(method, `depth ${depth} is outside 0..${BigInt(head.height) - initial}`);
  }
  const hash = await call.storage.blockHashAtHeight(head.height - Number(depth));
  if (!hash) throw bridgeFailure(method, `no main-chain block at height ${head.height - Number(depth)}`);
  return hash;
}

export const stateGetters: readonly BridgeMethod[] = [
  getter("getFeePerKb", [], "int256", 2_000, true, (_a, call) => call.storage.feePerKb()),
  getter("getMinimumLockTxValue", [], "int256", 2_000, true, (_a, call) => call.storage.constants.minimumPeginTxValue),
  getter("getLockingCap", [], "int256", 3_000, true, async (_a, call) => (await call.storage.lockingCap()).value),
  getter("isBtcTxHashAlreadyProcessed", ["string"], "bool", 23_000, true, async ([hash], call) => {
    return (await call.storage.processedHeight(txHashArgument("isBtcTxHashAlreadyProcessed", hash as AbiValue))) !== undefined;
  }),
  getter("getBtcTxHashProcessedHeight", ["string"], "int64", 22_000, true, async ([hash], call) => {
    return (await call.storage.processedHeight(txHashArgument("getBtcTxHashProcessedHeight", hash as AbiValue))) ?? -1n;
  }),
  getter("getLockWhitelistSize", [], "int256", 16_000, true, async (_a, call) => {
    await emptyWhitelist(call, "getLockWhitelistSize");
    return 0n;
  }),
  getter("getLockWhitelistAddress", ["int256"], "string", 16_000, true, async (_a, call) => {
    await emptyWhitelist(call, "getLockWhitelistAddress");
    return "";
  }),
  getter("getLockWhitelistEntryByAddress", ["string"], "int256", 16_000, true, async (_a, call) => {
    await emptyWhitelist(call, "getLockWhitelistEntryByAddress");
    return -1n;
  }),
  getter("getQueuedPegoutsCount", [], "uint256", 3_000, false, async (_a, call) => {
    return BigInt((await call.storage.releaseRequestQueue()).length);
  }),
  getter("getNextPegoutCreationBlockNumber", [], "uint256", 3_000, false, (_a, call) => call.storage.nextPegoutHeight()),
  getter("getEstimatedFeesForNextPegOutEvent", [], "uint256", 10_000, false, async (_a, call) => {
    const queued = (await call.storage.releaseRequestQueue()).length;
    return estimatedPegoutFees(call.federation, await call.storage.feePerKb(), 2, queued + 2);
  }),
  // The light client's chain: the stored head, else Bitcoin's genesis (wt-spv's tier B adds headers).
  chainGetter("getBtcBlockchainBestChainHeight", [], "int256", 19_000, false, async (_a, call) => {
    return BigInt((await call.storage.chainHead()).height);
  }),
  chainGetter("getBtcBlockchainInitialBlockHeight", [], "int256", 20_000, true, () => 0n),
  chainGetter("getBtcBlockchainBlockHashAtDepth", ["int256"], "bytes", 20_000, true, ([depth], call) =>
    blockAtDepth(call, "getBtcBlockchainBlockHashAtDepth", depth as bigint),
  ),
  chainGetter("getBtcBlockchainBestBlockHeader", [], "bytes", 3_800, false, async (_a, call) => {
    return (await call.storage.chainHead()).header;
  }),
  chainGetter("getBtcBlockchainBlockHeaderByHash", ["bytes32"], "bytes", 4_600, false, async ([hash], call) => {
    return (await call.storage.storedBlock(hash as Uint8Array))?.header ?? EMPTY;
  }),
  chainGetter("getBtcBlockchainParentBlockHeaderByHash", ["bytes32"], "bytes", 4_900, false, async ([hash], call) => {
    const block = await call.storage.storedBlock(hash as Uint8Array);
    if (!block) return EMPTY;
    // The header's previous-block hash is in internal byte order; the store keys display order.
    const parent = await call.storage.storedBlock(reverseBytes(block.header.subarray(4, 36)));
    return parent?.header ?? EMPTY;
  }),
  chainGetter("getBtcBlockchainBlockHeaderByHeight", ["uint256"], "bytes", 5_000, false, async ([height], call) => {
    const head = await call.storage.chainHead();
    const h = height as bigint;
    if (h < 0n || h > BigInt(head.height)) throw bridgeFailure("getBtcBlockchainBlockHeaderByHeight", `height ${h} is above the best chain's ${head.height}`);
    const hash = await call.storage.blockHashAtHeight(Number(h));
    const block = hash && (await call.storage.storedBlock(hash));
    if (!block) throw bridgeFailure("getBtcBlockchainBlockHeaderByHeight", `no main-chain block at height ${h}`);
    return block.header;
  }),
  getter("getStateForDebugging", [], "bytes", 3_000_000, true, (_a, call) => encodeStateForDebugging(call.storage)),
  getter("getStateForBtcReleaseClient", [], "bytes", 4_000, true, async (_a, call) => {
    const raw = await call.storage.get(BridgeKey.rskTxsWaitingFS);
    // StateForFederator: a list holding the serialized map (an RLP list of [rskTxHash, btcTx]*).
    const entries = decodePegoutsWaitingForSignatures("rskTxsWaitingFS", raw);
    entries.sort((a, b) => rskTxHashOrder(a.rskTxHash, b.rskTxHash));
    return RLP.encode([entries.flatMap((e) => [e.rskTxHash, e.btcTx])]);
  }),
  getter("getStateForSvpClient", [], "bytes", 4_000, true, async (_a, call) => {
    const stored = await call.storage.get(plainKey("svpSpendTxWaitingForSignatures"));
    if (stored.length > 0) throw bridgeFailure("getStateForSvpClient", `the stored SVP spend tx (0x${bytesToHex(stored)}) is not read by xchain`);
    return RLP.encode([[]]);
  }),
];
