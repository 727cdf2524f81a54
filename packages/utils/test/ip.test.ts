/** IP literals, canonical text, CIDR blocks, and the address-or-block of `sco_banAddress`. */
import {describe, expect, it} from "vitest";
import {cidrBlock, cidrContains, formatIp, isLoopback, parseIp, parseIpAddressOrRange} from "../src/ip.ts";

function ip(text: string) {
  const parsed = parseIp(text);
  if (parsed === undefined) throw new Error(`expected ${text} to parse`);
  return parsed;
}

describe("parseIp", () => {
  it("parses IPv4 dotted quads", () => {
    expect(Array.from(ip("10.0.0.1").bytes)).toEqual([10, 0, 0, 1]);
    expect(ip("255.255.255.255").text).toBe("255.255.255.255");
    expect(ip("0.0.0.0").text).toBe("0.0.0.0");
  });

  it.each([
    "",
    "10.0.0",
    "10.0.0.1.2",
    "256.0.0.1",
    "10.0.0.01",
    "10.0.0.-1",
    "10.0.0.1 ",
    "a.b.c.d",
    "localhost",
    "example.com",
    "1.2.3.4/8",
  ])("refuses IPv4-ish %j", (text) => {
    expect(parseIp(text)).toBeUndefined();
  });

  it("parses IPv6 and gives its RFC 5952 text", () => {
    expect(ip("::1").text).toBe("::1");
    expect(ip("0:0:0:0:0:0:0:1").text).toBe("::1");
    expect(ip("::").text).toBe("::");
    expect(ip("2001:DB8:0:0:0:0:0:1").text).toBe("2001:db8::1");
    expect(ip("2001:db8:0:0:1:0:0:1").text).toBe("2001:db8::1:0:0:1");
    expect(ip("2001:0db8:0000:0001:0000:0000:0000:0000").text).toBe("2001:db8:0:1::");
    expect(ip("fe80::").text).toBe("fe80::");
    expect(ip("1:2:3:4:5:6:7:8").text).toBe("1:2:3:4:5:6:7:8");
    expect(ip("1:0:3:4:5:6:7:8").text).toBe("1:0:3:4:5:6:7:8");
    expect(ip("::1").bytes.length).toBe(16);
    expect(ip("::1").bytes[15]).toBe(1);
  });

  it("parses an IPv4 tail and turns IPv4-mapped addresses into IPv4", () => {
    expect(ip("::ffff:10.1.2.3").text).toBe("10.1.2.3");
    expect(ip("::ffff:10.1.2.3").bytes.length).toBe(4);
    expect(ip("::FFFF:a01:203").text).toBe("10.1.2.3");
    expect(ip("::10.1.2.3").text).toBe("::a01:203");
    expect(ip("64:ff9b::1.2.3.4").text).toBe("64:ff9b::102:304");
  });

  it.each([
    ":",
    ":::",
    "1::2::3",
    "1:2:3:4:5:6:7",
    "1:2:3:4:5:6:7:8:9",
    "1:2:3:4:5:6:7::8",
    "12345::1",
    "g::1",
    ":1:2:3:4:5:6:7",
    "1.2.3.4::",
    "::1.2.3.4:5",
    "::256.0.0.1",
    "fe80::1%eth0",
    "[::1]",
  ])("refuses IPv6-ish %j", (text) => {
    expect(parseIp(text)).toBeUndefined();
  });

  it("formats 4 and 16 bytes", () => {
    expect(formatIp(Uint8Array.from([192, 168, 0, 1]))).toBe("192.168.0.1");
    const bytes = new Uint8Array(16);
    bytes[0] = 0x20;
    bytes[1] = 0x01;
    bytes[15] = 0xff;
    expect(formatIp(bytes)).toBe("2001::ff");
  });
});

describe("CIDR blocks", () => {
  it("clears host bits and matches by prefix (IPv4)", () => {
    const block = cidrBlock(ip("10.1.2.3").bytes, 8);
    expect(formatIp(block.network)).toBe("10.0.0.0");
    expect(cidrContains(block, ip("10.255.0.1").bytes)).toBe(true);
    expect(cidrContains(block, ip("11.0.0.1").bytes)).toBe(false);

    const odd = cidrBlock(ip("192.168.51.1").bytes, 20);
    expect(formatIp(odd.network)).toBe("192.168.48.0");
    expect(cidrContains(odd, ip("192.168.63.255").bytes)).toBe(true);
    expect(cidrContains(odd, ip("192.168.64.0").bytes)).toBe(false);
    expect(cidrContains(odd, ip("192.168.47.255").bytes)).toBe(false);

    const single = cidrBlock(ip("10.0.0.1").bytes, 32);
    expect(cidrContains(single, ip("10.0.0.1").bytes)).toBe(true);
    expect(cidrContains(single, ip("10.0.0.2").bytes)).toBe(false);
  });

  it("matches by prefix (IPv6) and never across families", () => {
    const block = cidrBlock(ip("2001:db8:abcd::").bytes, 33);
    expect(formatIp(block.network)).toBe("2001:db8:8000::");
    expect(cidrContains(block, ip("2001:db8:8000::1").bytes)).toBe(true);
    expect(cidrContains(block, ip("2001:db8:ffff:ffff::1").bytes)).toBe(true);
    expect(cidrContains(block, ip("2001:db8:7fff::1").bytes)).toBe(false);
    const v4 = cidrBlock(ip("0.0.0.1").bytes, 1);
    expect(cidrContains(v4, ip("::1").bytes)).toBe(false);
    expect(cidrContains(v4, ip("1.2.3.4").bytes)).toBe(true);
  });
});

describe("parseIpAddressOrRange", () => {
  it("parses an address, trimmed, with its canonical text", () => {
    expect(parseIpAddressOrRange(" 192.168.56.1 ")).toEqual({
      given: "192.168.56.1",
      ip: ip("192.168.56.1"),
      canonical: "192.168.56.1",
    });
    expect(parseIpAddressOrRange("0:0:0:0:0:0:0:1")?.canonical).toBe("::1");
    expect(parseIpAddressOrRange("::ffff:10.0.0.1")?.canonical).toBe("10.0.0.1");
  });

  it("parses a block, whose canonical text is its network and prefix", () => {
    const range = parseIpAddressOrRange("10.1.2.3/8");
    expect(range?.given).toBe("10.1.2.3/8");
    expect(range?.ip.text).toBe("10.1.2.3");
    expect(range?.block?.prefix).toBe(8);
    expect(range?.canonical).toBe("10.0.0.0/8");
    expect(parseIpAddressOrRange("2001:DB8:ffff::/32")?.canonical).toBe("2001:db8::/32");
    expect(parseIpAddressOrRange("128.0.0.0/1")?.canonical).toBe("128.0.0.0/1");
    expect(parseIpAddressOrRange("::2/128")?.canonical).toBe("::2/128");
  });

  it.each([
    "",
    "   ",
    "192.168.56.1/a",
    "192.168.56.1/",
    "/8",
    "192.168.56.1/0",
    "192.168.56.1/33",
    "192.168.56.1/-1",
    "192.168.56.1/8/8",
    "2001:db8::/129",
    "::1/0",
    "0.0.0.0",
    "0.0.0.0/8",
    "::",
    "0:0:0:0:0:0:0:0",
    "256.1.1.1",
    "10.0.0",
    "1::2::3",
    "localhost",
    "example.com",
    "/ip4/10.0.0.1/tcp/1",
    "fe80::1%eth0",
  ])("refuses %j", (text) => {
    expect(parseIpAddressOrRange(text)).toBeUndefined();
  });
});

describe("isLoopback", () => {
  const loopback = (text: string) => isLoopback(parseIp(text)!.bytes);
  it("is 127.0.0.0/8, ::1 and their IPv4-mapped spelling", () => {
    expect(loopback("127.0.0.1")).toBe(true);
    expect(loopback("127.255.3.4")).toBe(true);
    expect(loopback("::1")).toBe(true);
    expect(loopback("::ffff:127.0.0.1")).toBe(true);
  });
  it("is nothing else", () => {
    expect(loopback("128.0.0.1")).toBe(false);
    expect(loopback("10.0.0.1")).toBe(false);
    expect(loopback("::2")).toBe(false);
    expect(loopback("::")).toBe(false);
    expect(loopback("1::1")).toBe(false);
  });
});
