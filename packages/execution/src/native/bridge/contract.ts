/**
 * The Bridge at 0x…01000006 (docs/protocol/native-contracts.md §10.1; rskj's `Bridge.getGasForData`
 * and `execute`): empty input is `releaseBtc`; input that names no method (1–3 bytes, an unknown
 * selector, arguments that do not decode) costs 23,000 gas and fails; any other costs the method's
 * price plus 2 gas per input byte, or nothing for a free transaction. A local-only method fails
 * outside eth_call, DELEGATECALL and CALLCODE always fail, STATICCALL only where the method accepts
 * it (RSKIP-417). The storage a call changed is written only when it succeeds; a void method
 * answers no bytes.
 */
import {Address} from "@ethereumjs/util";
import {BRIDGE_ADDRESS} from "@xchain/chainspec";
import type {Log} from "@xchain/primitives";
import {bytesStorage, type WordStorage} from "@xchain/state";
import {bytesToHex, equalBytes} from "@xchain/utils";
import {NativeContractFailureCode} from "../../errors.ts";
import {AbiDecodeError, type AbiValue, decodeArguments, encodeOutputs} from "../dispatch/abi.ts";
import type {NativeCallContext, NativeContract} from "../dispatch/types.ts";
import {type BridgeMethod, bridgeFailure} from "./call.ts";
import {genesisFederationOf} from "./federation.ts";
import {BRIDGE_METHODS_BY_SELECTOR} from "./methods.ts";
import {releaseBtcMethod} from "./releaseBtc.ts";
import {BridgeStorage} from "./storage.ts";

/** What unparseable input costs: `releaseBtc`'s price, without the per-byte charge. */
export const UNPARSEABLE_INPUT_GAS = 23_000n;

const BRIDGE = new Address(BRIDGE_ADDRESS);

function parse(data: Uint8Array): {method: BridgeMethod; args: AbiValue[]} | undefined {
  if (data.length === 0) return {method: releaseBtcMethod, args: []};
  if (data.length < 4) return undefined;
  const method = BRIDGE_METHODS_BY_SELECTOR.get(bytesToHex(data.subarray(0, 4)));
  if (!method) return undefined;
  try {
    return {method, args: decodeArguments(method.fn, data)};
  } catch (e) {
    if (e instanceof AbiDecodeError) return undefined;
    throw e;
  }
}

/**
 * rskj's `isFreeBridgeTx`: a signed transaction straight to the Bridge from a genesis federator or
 * a federation-change, lock-whitelist or fee-per-kb authorizer (`areBridgeTxsPaid` is never active on
 * regtest); no contract ever qualifies.
 */
function isFree(context: NativeCallContext): boolean {
  if (context.callType !== "TRANSACTION" || context.localCall || !context.transactionPublicKey) return false;
  const constants = context.chainspec.params.bridge;
  const free = [
    ...genesisFederationOf(constants).members.map((member) => member.rskAddress),
    ...constants.federationChangeAuthorizer.addresses,
    ...constants.lockWhitelistChangeAuthorizer.addresses,
    ...constants.feePerKbChangeAuthorizer.addresses,
  ];
  return free.some((address) => equalBytes(address, context.sender));
}

/** The Bridge's storage words in the message's state (the account exists from genesis). */
function bridgeWords(context: NativeCallContext): WordStorage {
  return {
    async get(slot) {
      const value = await context.state.getStorage(BRIDGE, slot);
      const word = new Uint8Array(32);
      word.set(value, 32 - value.length);
      return word;
    },
    put: (slot, word) => context.state.putStorage(BRIDGE, slot, word),
  };
}

function checkCallType(method: BridgeMethod, context: NativeCallContext): void {
  const {callType} = context;
  if (callType === "TRANSACTION" || callType === "CALL") return;
  if (callType === "STATICCALL" && method.acceptsStaticCall) return;
  throw bridgeFailure(method.fn.name, `cannot be reached by ${callType}`, NativeContractFailureCode.CALLER_REFUSED);
}

export const bridgeContract: NativeContract = {
  name: "Bridge",
  address: BRIDGE_ADDRESS,
  // The Bridge exists from genesis on every network.
  isActive: () => true,
  // On a fork its storage is the upstream's, which a local run cannot keep consistent (docs/forking.md §6).
  runsOnFork: false,
  gas(data, context) {
    if (isFree(context)) return 0n;
    const parsed = parse(data);
    if (!parsed) return UNPARSEABLE_INPUT_GAS;
    const perByte = 2n * BigInt(data.length);
    const storage = () => new BridgeStorage(bytesStorage(bridgeWords(context)), context.chainspec.params.bridge);
    const gas = parsed.method.gas(parsed.args, storage);
    return typeof gas === "bigint" ? gas + perByte : gas.then((g) => g + perByte);
  },
  async run(data, context) {
    const parsed = parse(data);
    if (!parsed) {
      throw bridgeFailure("execute", "the input names no method", NativeContractFailureCode.UNKNOWN_METHOD);
    }
    const {method, args} = parsed;
    if (method.localOnly && !context.localCall) {
      throw bridgeFailure(method.fn.name, "only allowed in a local call", NativeContractFailureCode.LOCAL_CALL_ONLY);
    }
    checkCallType(method, context);
    const constants = context.chainspec.params.bridge;
    const storage = new BridgeStorage(bytesStorage(bridgeWords(context)), constants);
    const logs: Log[] = [];
    const result = await method.run(args, {context, storage, federation: genesisFederationOf(constants), logs});
    await storage.save();
    return {output: result === undefined ? new Uint8Array(0) : encodeOutputs(method.fn, [result]), logs};
  },
};
