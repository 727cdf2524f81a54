/** Browser-origin defences: the Host and Origin rules (the listeners applying them: e2e/transport/browserGuard.test.ts). */
import type {IncomingMessage} from "node:http";
import {describe, expect, it} from "vitest";
import {browserRefusal, isHostAllowed, isOriginAllowed} from "../../src/transport/browserGuard.ts";

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

describe("browserRefusal", () => {
  const asked = (host: string | undefined, origin?: string) => ({headers: {host, origin}}) as IncomingMessage;

  it("refuses a Host right after another Host was allowed by the same guard, and allows it again after", () => {
    const guard = {vhosts: LOOPBACK};
    expect(browserRefusal(asked("localhost:4444"), "http", guard)).toBeUndefined();
    expect(browserRefusal(asked("localhost:4444"), "http", guard)).toBeUndefined();
    expect(browserRefusal(asked("evil.example"), "http", guard)?.message).toMatch(/evil\.example/);
    expect(browserRefusal(asked(undefined), "http", guard)?.message).toMatch(/no Host header/);
    expect(browserRefusal(asked("localhost:4444"), "http", guard)).toBeUndefined();
  });

  it("checks the Origin of every handshake whose Host was allowed before", () => {
    const guard = {vhosts: LOOPBACK, origins: ["localhost"]};
    expect(browserRefusal(asked("localhost", "http://localhost:3000"), "ws", guard)).toBeUndefined();
    expect(browserRefusal(asked("localhost", "http://evil.example"), "ws", guard)?.message).toMatch(/origin/);
  });
});

describe("isHostAllowed", () => {
  it.each(["localhost", "localhost:4444", "LOCALHOST:1", "127.0.0.1", "127.0.0.1:4444", "[::1]", "[::1]:4444"])(
    "allows the loopback name %s by default, whatever the port",
    (host) => {
      expect(isHostAllowed(host, LOOPBACK)).toBe(true);
    },
  );

  it.each([
    undefined,
    "",
    "evil.example",
    "evil.example:4444",
    "localhost.evil.example",
    "127.0.0.2",
    "[::2]:4444",
    "192.168.1.5:4444",
    "localhost:4444:1",
    "user@localhost",
  ])("refuses %s by default", (host) => {
    expect(isHostAllowed(host, LOOPBACK)).toBe(false);
  });

  it("allows listed names and addresses, an IPv6 one also written without brackets", () => {
    expect(isHostAllowed("node.example:4444", ["node.example"])).toBe(true);
    expect(isHostAllowed("10.0.0.5:4444", ["node.example", "10.0.0.5"])).toBe(true);
    expect(isHostAllowed("[fd00::5]:4444", ["fd00::5"])).toBe(true);
    expect(isHostAllowed("localhost", ["node.example"])).toBe(false);
  });

  it("allows any Host with *, and refuses every Host with an empty list", () => {
    expect(isHostAllowed("evil.example:80", ["*"])).toBe(true);
    expect(isHostAllowed(undefined, ["*"])).toBe(true);
    expect(isHostAllowed("localhost", [])).toBe(false);
  });
});

describe("isOriginAllowed", () => {
  it.each([
    undefined,
    "http://localhost",
    "http://localhost:3000",
    "https://localhost:8443",
    "http://127.0.0.1:8080",
    "http://[::1]:5173",
    "https://[::1]",
  ])("allows %s by default (no Origin, or a loopback one)", (origin) => {
    expect(isOriginAllowed(origin, LOOPBACK)).toBe(true);
  });

  it.each([
    "http://evil.example",
    "https://evil.example:443",
    "http://localhost.evil.example",
    "http://127.0.0.2:3000",
    "null",
    "file://",
    "",
    "localhost",
  ])("refuses %s by default", (origin) => {
    expect(isOriginAllowed(origin, LOOPBACK)).toBe(false);
  });

  it("matches the scheme and port of a rule when it has them", () => {
    const rules = ["http://localhost:3000", "https://app.example"];
    expect(isOriginAllowed("http://localhost:3000", rules)).toBe(true);
    expect(isOriginAllowed("http://localhost:3001", rules)).toBe(false);
    expect(isOriginAllowed("https://localhost:3000", rules)).toBe(false);
    expect(isOriginAllowed("https://app.example", rules)).toBe(true);
    expect(isOriginAllowed("https://app.example:8443", rules)).toBe(true);
    expect(isOriginAllowed("http://app.example", rules)).toBe(false);
    // A default port written in the rule matches the origin that omits it.
    expect(isOriginAllowed("http://app.example", ["http://app.example:80"])).toBe(true);
    expect(isOriginAllowed("HTTP://APP.EXAMPLE", ["app.example/"])).toBe(true);
  });

  it("allows any origin with *", () => {
    expect(isOriginAllowed("http://evil.example", ["*"])).toBe(true);
    expect(isOriginAllowed("null", ["*"])).toBe(true);
  });
});
