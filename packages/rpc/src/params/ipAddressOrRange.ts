/**
 * `sco_banAddress` / `sco_unbanAddress`'s argument: an IPv4 or IPv6 address or CIDR block
 * (`parseIpAddressOrRange`, rskj's rules). A string that is not one is -32602 worded as rskj's
 * `invalid banned address <x>`, not naming the argument as other codecs do.
 */
import {type IpAddressOrRange, parseIpAddressOrRange} from "@xchain/utils";
import {RpcError} from "../jsonrpc/errors.ts";
import {type Codec, string, withSchema} from "./codec.ts";

/** An address or block; a value that is not a string fails as `string` does. */
export const ipAddressOrRange: Codec<IpAddressOrRange> = withSchema(
  {
    title: "IP address or CIDR block",
    type: "string",
  },
  (value, path) => {
    const text = string(value, path);
    const range = parseIpAddressOrRange(text);
    if (range === undefined) throw RpcError.invalidParams(`invalid banned address ${text}`);
    return range;
  },
);
