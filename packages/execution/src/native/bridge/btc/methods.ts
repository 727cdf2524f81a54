/**
 * The Bridge's light-client and peg-in methods (docs/protocol/native-contracts.md §10.5, §10.6; rskj's
 * `BridgeMethods` rows and `Bridge.java` argument handling). Integers arrive as rskj reads them
 * (`BigInteger.intValue()`: the low 32 bits, signed). The light client opens on the call's storage,
 * storing genesis first when nothing is stored, so a mined call writes it.
 */

import {BRIDGE_ADDRESS} from "@xchain/chainspec";
import {type AbiValue, abiFunction} from "../../dispatch/abi.ts";
import {type BridgeCall, type BridgeMethod, bridgeFailure, price, requireFederator} from "../call.ts";
import {transfer} from "../releaseBtc.ts";
import type {BridgeStorage} from "../storage.ts";
import {coinbaseInformationKey} from "../storageKeys.ts";
import {PeginError} from "./errors.ts";
import {BtcLightClient, type LightClientActivations} from "./lightClient.ts";
import {registerBtcTransaction} from "./registerBtcTransaction.ts";

/**
 * The activations the Bridge runs with: regtest's, where RSKIP-199 (the height index) and RSKIP-434 are
 * active and RSKIP-551 keeps unrefundable peg-ins unmarked, as for every other Bridge method.
 */
const ACTIVATIONS: LightClientActivations = {heightIndex: true, tooMuchChainWorkFixed: true};
const MARK_UNREFUNDABLE_PEGINS_PROCESSED = false;

const RECEIVE_HEADERS_BASE_GAS = 25_000n;
const RECEIVE_HEADERS_GAS_PER_HEADER = 3_500n;

/** rskj's `((BigInteger) arg).intValue()`. */
const int32 = (value: AbiValue): number => Number(BigInt.asIntN(32, value as bigint));

const openLightClient = (storage: BridgeStorage): Promise<BtcLightClient> => BtcLightClient.open(storage, ACTIVATIONS);

/** A PeginError is a failure of the call (rskj's `VMException`); other errors stay the node's. */
async function failing<T>(method: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof PeginError) throw bridgeFailure(method, e.message);
    throw e;
  }
}

function method(
  name: string,
  inputs: string[],
  outputs: string[],
  gas: BridgeMethod["gas"],
  options: {localOnly?: boolean; acceptsStaticCall: boolean},
  run: (args: AbiValue[], call: BridgeCall, client: BtcLightClient) => Promise<AbiValue | undefined>,
): BridgeMethod {
  return {
    fn: abiFunction(name, inputs, outputs),
    gas,
    ...(options.localOnly ? {localOnly: true} : {}),
    acceptsStaticCall: options.acceptsStaticCall,
    run: (args, call) => failing(name, async () => run(args, call, await openLightClient(call.storage))),
  };
}

const getter = (
  name: string,
  inputs: string[],
  output: string,
  gas: number,
  localOnly: boolean,
  run: (args: AbiValue[], client: BtcLightClient) => Promise<AbiValue>,
): BridgeMethod =>
  method(name, inputs, [output], price(gas), {localOnly, acceptsStaticCall: true}, (args, _call, client) =>
    run(args, client),
  );

/** `getBtcTransactionConfirmationsGetCost`: reads the block's depth from the Bridge's storage. */
async function confirmationsGas(args: AbiValue[], storage: () => BridgeStorage): Promise<bigint> {
  const client = await openLightClient(storage());
  return client.transactionConfirmationsGas(args[1] as Uint8Array, (args[3] as AbiValue[]).length);
}

export const lightClientMethods: readonly BridgeMethod[] = [
  method(
    "receiveHeader",
    ["bytes"],
    ["int256"],
    price(10_600),
    {acceptsStaticCall: false},
    async ([header], call, client) =>
      BigInt(await client.receiveHeader(header as Uint8Array, BigInt(call.context.block.timestamp))),
  ),
  method(
    "receiveHeaders",
    ["bytes[]"],
    [],
    (args) => {
      const count = BigInt((args[0] as AbiValue[]).length);
      return count === 0n
        ? RECEIVE_HEADERS_BASE_GAS
        : RECEIVE_HEADERS_BASE_GAS + (count - 1n) * RECEIVE_HEADERS_GAS_PER_HEADER;
    },
    {acceptsStaticCall: false},
    async ([headers], call, client) => {
      requireFederator(call, "receiveHeaders");
      await client.receiveHeaders(headers as Uint8Array[]);
      return undefined;
    },
  ),
  getter("getBtcBlockchainBestChainHeight", [], "int256", 19_000, false, async (_a, client) =>
    BigInt(await client.bestChainHeight()),
  ),
  getter("getBtcBlockchainInitialBlockHeight", [], "int256", 20_000, true, async (_a, client) =>
    BigInt(client.initialBlockHeight()),
  ),
  getter("getBtcBlockchainBlockHashAtDepth", ["int256"], "bytes", 20_000, true, ([depth], client) =>
    client.blockHashAtDepth(int32(depth as AbiValue)),
  ),
  getter("getBtcBlockchainBestBlockHeader", [], "bytes", 3_800, false, (_a, client) => client.bestBlockHeader()),
  getter("getBtcBlockchainBlockHeaderByHash", ["bytes32"], "bytes", 4_600, false, ([hash], client) =>
    client.headerByHash(hash as Uint8Array),
  ),
  getter("getBtcBlockchainBlockHeaderByHeight", ["uint256"], "bytes", 5_000, false, ([height], client) =>
    client.headerByHeight(int32(height as AbiValue)),
  ),
  getter("getBtcBlockchainParentBlockHeaderByHash", ["bytes32"], "bytes", 4_900, false, ([hash], client) =>
    client.parentHeaderByHash(hash as Uint8Array),
  ),
  method(
    "getBtcTransactionConfirmations",
    ["bytes32", "bytes32", "uint256", "bytes32[]"],
    ["int256"],
    confirmationsGas,
    {acceptsStaticCall: true},
    async ([tx, block, path, branch], _call, client) =>
      BigInt(
        await client.transactionConfirmations(
          tx as Uint8Array,
          block as Uint8Array,
          int32(path as AbiValue),
          branch as Uint8Array[],
        ),
      ),
  ),
  // RSKIP-143's coinbase information, read without opening the light client (rskj's does not):
  // registerBtcCoinbaseTransaction is not built (§10.5 item 5), so no entry is ever written; one written
  // otherwise (a dev control's raw write) is not read and fails the call.
  {
    fn: abiFunction("hasBtcBlockCoinbaseTransactionInformation", ["bytes32"], ["bool"]),
    gas: price(5_000),
    acceptsStaticCall: true,
    run: async ([hash], call) => {
      if ((await call.storage.get(coinbaseInformationKey(hash as Uint8Array))).length === 0) return false;
      throw bridgeFailure(
        "hasBtcBlockCoinbaseTransactionInformation",
        "stored coinbase information is not read by xchain (registerBtcCoinbaseTransaction is not built)",
      );
    },
  },
  method(
    "registerBtcTransaction",
    ["bytes", "int256", "bytes"],
    [],
    price(22_000),
    {acceptsStaticCall: false},
    async ([tx, height, pmt], call, lightClient) => {
      const result = await registerBtcTransaction(
        {
          storage: call.storage,
          lightClient,
          rskBlockNumber: BigInt(call.context.block.number),
          markUnrefundablePeginsProcessed: MARK_UNREFUNDABLE_PEGINS_PROCESSED,
        },
        tx as Uint8Array,
        int32(height as AbiValue),
        pmt as Uint8Array,
      );
      if (result.transfer) await transfer(call, BRIDGE_ADDRESS, result.transfer.to, result.transfer.wei);
      call.logs.push(...result.logs);
      return undefined;
    },
  ),
];
