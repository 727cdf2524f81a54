/**
 * The call object of eth_call, eth_estimateGas and eth_sendTransaction (docs/rpc.md §4.4). `data` and
 * its alias `input` must agree when both are given. Members this node has no use for (`type`,
 * `chainId`, EIP-1559 fees, `accessList`) are ignored, as wallets send them unasked.
 */
import {equalBytes} from "@xchain/utils";
import {dataSchema, objectSchema, QUANTITY_SCHEMA} from "../jsonrpc/jsonSchema.ts";
import {type Codec, objectMembers, optionalMember, ParamError, withSchema} from "./codec.ts";
import {address, data, gasQuantity, quantity} from "./hex.ts";

/** A decoded call object; every member is optional here, methods require what they need. */
export interface CallRequest {
  from?: Uint8Array;
  /** Undefined (or null on the wire) for a contract creation. */
  to?: Uint8Array;
  gas?: bigint;
  gasPrice?: bigint;
  value?: bigint;
  data?: Uint8Array;
  nonce?: bigint;
}

const CALL_SCHEMA = objectSchema("call object", {
  from: dataSchema(20),
  to: {oneOf: [dataSchema(20), {type: "null"}]},
  gas: QUANTITY_SCHEMA,
  gasPrice: QUANTITY_SCHEMA,
  value: QUANTITY_SCHEMA,
  data: dataSchema(),
  input: dataSchema(),
  nonce: QUANTITY_SCHEMA,
});

/** Decodes a call object. */
export const callRequest: Codec<CallRequest> = withSchema(CALL_SCHEMA, (value, path) => {
  const members = objectMembers(value, path);
  const input = optionalMember(members, "input", data, path);
  const payload = optionalMember(members, "data", data, path);
  if (input && payload && !equalBytes(input, payload)) {
    throw new ParamError(path, 'both "data" and "input" are set and differ');
  }
  const request: CallRequest = {};
  const set = <K extends keyof CallRequest>(key: K, v: CallRequest[K] | undefined) => {
    if (v !== undefined) request[key] = v;
  };
  set("from", optionalMember(members, "from", address, path));
  set("to", optionalMember(members, "to", address, path));
  set("gas", optionalMember(members, "gas", gasQuantity, path));
  set("gasPrice", optionalMember(members, "gasPrice", quantity, path));
  set("value", optionalMember(members, "value", quantity, path));
  set("data", input ?? payload);
  set("nonce", optionalMember(members, "nonce", gasQuantity, path));
  return request;
});
