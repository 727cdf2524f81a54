/**
 * The Bridge's events (docs/protocol/native-contracts.md §10.9, rskj's `BridgeEvents`): Solidity-style
 * logs from the Bridge's address, topic 0 the keccak-256 of the signature, indexed parameters as
 * words, the others ABI-encoded by rskj's codec into the data.
 */
import {BRIDGE_ADDRESS} from "@xchain/chainspec";
import type {Log} from "@xchain/primitives";
import {keccak256, utf8ToBytes} from "@xchain/utils";
import {type AbiType, type AbiValue, abiFunction, encodeOutputs} from "../dispatch/abi.ts";

interface EventParam {
  type: AbiType;
  indexed: boolean;
}

/** One event: its signature and parameters. */
export interface BridgeEvent {
  readonly name: string;
  readonly params: readonly EventParam[];
  readonly topic0: Uint8Array;
}

function event(name: string, params: [AbiType, boolean][]): BridgeEvent {
  const signature = `${name}(${params.map(([type]) => type).join(",")})`;
  return {
    name,
    params: params.map(([type, indexed]) => ({type, indexed})),
    topic0: keccak256(utf8ToBytes(signature)),
  };
}

const I = true;
const N = false;

/** The events tier A emits, and those the light client and peg-ins (tier B) emit. */
export const BridgeEvents = {
  releaseRequestReceived: event("release_request_received", [
    ["address", I],
    ["string", N],
    ["uint256", N],
  ]),
  releaseRequestRejected: event("release_request_rejected", [
    ["address", I],
    ["uint256", N],
    ["int256", N],
  ]),
  peginBtc: event("pegin_btc", [
    ["address", I],
    ["bytes32", I],
    ["int256", N],
    ["int256", N],
  ]),
  rejectedPegin: event("rejected_pegin", [
    ["bytes32", I],
    ["int256", N],
  ]),
  unrefundablePegin: event("unrefundable_pegin", [
    ["bytes32", I],
    ["int256", N],
  ]),
} as const;

/** The log of `event` with `values` in parameter order (an address as its 20 bytes, a bytes32 as 32). */
export function eventLog(event: BridgeEvent, values: readonly AbiValue[]): Log {
  const topics: Uint8Array[] = [event.topic0];
  const dataTypes: AbiType[] = [];
  const dataValues: AbiValue[] = [];
  event.params.forEach(({type, indexed}, i) => {
    const value = values[i] as AbiValue;
    if (!indexed) {
      dataTypes.push(type);
      dataValues.push(value);
      return;
    }
    topics.push(encodeOutputs(abiFunction(event.name, [], [type]), [value]));
  });
  return {address: BRIDGE_ADDRESS, topics, data: encodeOutputs(abiFunction(event.name, [], dataTypes), dataValues)};
}
