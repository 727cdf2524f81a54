/** The `sco_banAddress` codec: an IP address or CIDR block, or rskj's -32602 message. */
import {describe, expect, it} from "vitest";
import {RpcError, RpcErrorCode} from "../../src/jsonrpc/errors.ts";
import {ParamError} from "../../src/params/codec.ts";
import {ipAddressOrRange} from "../../src/params/ipAddressOrRange.ts";

function refusal(value: unknown): unknown {
  try {
    ipAddressOrRange(value, "address");
  } catch (e) {
    return e;
  }
  throw new Error(`expected ${JSON.stringify(value)} to be refused`);
}

describe("ipAddressOrRange", () => {
  it("decodes addresses and blocks, IPv4 and IPv6, trimmed", () => {
    expect(ipAddressOrRange("10.0.0.0/8", "address")).toMatchObject({given: "10.0.0.0/8", canonical: "10.0.0.0/8"});
    expect(ipAddressOrRange(" 192.168.56.1 ", "address")).toMatchObject({
      given: "192.168.56.1",
      canonical: "192.168.56.1",
    });
    expect(ipAddressOrRange("0:0:0:0:0:0:0:1", "address").canonical).toBe("::1");
    expect(ipAddressOrRange("2001:DB8::/32", "address")).toMatchObject({
      given: "2001:DB8::/32",
      canonical: "2001:db8::/32",
      block: {prefix: 32},
    });
  });

  it.each(["not-an-ip", " nope ", "", "10.0.0.1/33", "0.0.0.0", "::", "1::2::3", "/ip4/10.0.0.1/tcp/1", "localhost"])(
    "refuses %j with -32602 'invalid banned address <x>' (rskj's words, the text as sent)",
    (text) => {
      const error = refusal(text);
      expect(error).toBeInstanceOf(RpcError);
      expect((error as RpcError).code).toBe(RpcErrorCode.INVALID_PARAMS);
      expect((error as RpcError).message).toBe(`invalid banned address ${text}`);
    },
  );

  it("refuses a value that is not a string as the string codec does", () => {
    const error = refusal(7);
    expect(error).toBeInstanceOf(ParamError);
    expect((error as ParamError).message).toBe("address: expected a string, got number");
  });
});
