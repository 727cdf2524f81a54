import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {type Logger, noopLogger} from "@xchain/utils";
import {afterEach, describe, expect, it} from "vitest";
import {Gateway} from "../../src/gateway/gateway.ts";
import {KeyAccess} from "../../src/gateway/keyAccess.ts";
import {type ApiKeyRecord, defaultKeyLimits, defaultKeyPermissions, writeKeysFile} from "../../src/gateway/keysFile.ts";
import {hashSecret, newSecret} from "../../src/gateway/secret.ts";
import {RpcError} from "../../src/jsonrpc/errors.ts";
import type {Connection} from "../../src/jsonrpc/registry.ts";

function record(id: string, secret: string, limits: Partial<ApiKeyRecord["limits"]> = {}): ApiKeyRecord {
  return {
    id,
    sha256: hashSecret(secret),
    label: "",
    created: "",
    permissions: defaultKeyPermissions(),
    limits: {...defaultKeyLimits(), ...limits},
  };
}

function fakeConnection(): Connection & {close(): void} {
  const listeners: (() => void)[] = [];
  return {
    notify: () => undefined,
    onClose: (l) => void listeners.push(l),
    close: () => {
      for (const l of listeners) l();
    },
  };
}

const open: Gateway[] = [];
afterEach(() => {
  for (const g of open.splice(0)) g.close();
});

/** A logger keeping its warn lines. */
function warnings(): Logger & {lines: string[]} {
  const lines: string[] = [];
  return {
    ...noopLogger,
    lines,
    warn: (context: object | string, message?: string) => void lines.push(message ?? JSON.stringify(context)),
  };
}

async function gatewayWith(
  records: ApiKeyRecord[] | undefined,
  logger: Logger = noopLogger,
): Promise<{gateway: Gateway; path: string}> {
  const path = join(mkdtempSync(join(tmpdir(), "xchain-gw-")), "keys.json");
  if (records !== undefined) await writeKeysFile(path, {version: 1, keys: records});
  const gateway = await Gateway.open(path, logger, {pollMs: 50, debounceMs: 10});
  open.push(gateway);
  return {gateway, path};
}

describe("Gateway.admit", () => {
  it("admits /<key> exactly and refuses anything else with -32001", async () => {
    const secret = newSecret();
    const {gateway} = await gatewayWith([record("k1", secret)]);
    expect((gateway.admit(`/${secret}`) as KeyAccess).id).toBe("k1");
    const refused = [
      undefined,
      "/",
      `/${secret}/`,
      `/${secret}?a=1`,
      `/?key=${secret}`,
      `/${secret.toUpperCase()}`,
      `/${secret.slice(0, 62)}%61`,
      `/${secret}0`,
      `/../${secret.slice(3)}`,
      `//${secret.slice(1)}`,
      `/${newSecret()}`,
    ];
    for (const url of refused) {
      const answer = gateway.admit(url);
      expect(answer, String(url)).toBeInstanceOf(RpcError);
      expect((answer as RpcError).code).toBe(-32001);
    }
  });

  it("picks up added, changed and removed keys, and closes a revoked key's connections", async () => {
    const first = newSecret();
    const second = newSecret();
    const {gateway, path} = await gatewayWith([record("k1", first)]);
    const access = gateway.admit(`/${first}`) as KeyAccess;
    const connection = fakeConnection();
    let closed = 0;
    access.attach(connection, () => {
      closed++;
      connection.close();
    });
    expect(access.connectionCount).toBe(1);

    await writeKeysFile(path, {version: 1, keys: [record("k1", first, {burst: 7}), record("k2", second)]});
    await gateway.reload();
    expect(gateway.admit(`/${first}`)).toBe(access);
    expect(access.limits.burst).toBe(7);
    expect((gateway.admit(`/${second}`) as KeyAccess).id).toBe("k2");

    await writeKeysFile(path, {version: 1, keys: [record("k2", second)]});
    await gateway.reload();
    expect(gateway.admit(`/${first}`)).toBeInstanceOf(RpcError);
    expect(access.revoked).toBe(true);
    expect(closed).toBe(1);
    expect(access.connectionCount).toBe(0);
  });

  it("keeps the previous keys when the file turns invalid", async () => {
    const secret = newSecret();
    const {gateway, path} = await gatewayWith([record("k1", secret)]);
    const {writeFile} = await import("node:fs/promises");
    await writeFile(path, "{");
    await gateway.reload();
    expect(gateway.admit(`/${secret}`)).toBeInstanceOf(KeyAccess);
  });

  it("refuses a reload holding one key hash twice, keeping the previous keys, logged", async () => {
    const secret = newSecret();
    const logger = warnings();
    const {gateway, path} = await gatewayWith([record("k1", secret)], logger);
    const access = gateway.admit(`/${secret}`) as KeyAccess;
    await writeKeysFile(path, {version: 1, keys: [record("k1", secret), record("k2", secret)]});
    await gateway.reload();
    // Both records would share one map entry: the first one's connections would outlive its revocation.
    expect(gateway.admit(`/${secret}`)).toBe(access);
    expect(logger.lines).toEqual(["gateway keys file not reloaded; the previous keys stay"]);
    // Revoking the key in a valid file then does revoke it.
    await writeKeysFile(path, {version: 1, keys: [record("k2", newSecret())]});
    await gateway.reload();
    expect(access.revoked).toBe(true);
  });

  it("warns at start-up and at a reload that leaves no key, and refuses saying no keys are loaded", async () => {
    const logger = warnings();
    const {gateway, path} = await gatewayWith(undefined, logger);
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toContain(`API-key gateway on with no keys in ${path} (missing or empty)`);
    for (const url of [`/${newSecret()}`, "/"]) {
      expect((gateway.admit(url) as RpcError).message).toBe("unauthorized: no API keys are loaded on this node");
    }
    const secret = newSecret();
    await writeKeysFile(path, {version: 1, keys: [record("k1", secret)]});
    await gateway.reload();
    expect(gateway.admit(`/${secret}`)).toBeInstanceOf(KeyAccess);
    expect((gateway.admit(`/${newSecret()}`) as RpcError).message).toBe("unauthorized: unknown API key");
    await writeKeysFile(path, {version: 1, keys: []});
    await gateway.reload();
    expect(logger.lines).toHaveLength(2);
  });

  it("notices a change by itself", async () => {
    const secret = newSecret();
    const {gateway, path} = await gatewayWith([]);
    await writeKeysFile(path, {version: 1, keys: [record("k1", secret)]});
    await expect.poll(() => gateway.admit(`/${secret}`) instanceof KeyAccess, {timeout: 20_000}).toBe(true);
  });
});

describe("checkRate", () => {
  it("answers each request of a body over the rate with -32005 under its id, and a Retry-After", () => {
    const access = new KeyAccess(record("k1", newSecret(), {requestsPerSecond: 1, burst: 2}));
    expect(access.checkRate({jsonrpc: "2.0", id: 1, method: "eth_blockNumber"})).toBeUndefined();
    const refusal = access.checkRate([
      {jsonrpc: "2.0", id: 2, method: "eth_blockNumber"},
      {jsonrpc: "2.0", id: "x", method: "eth_chainId"},
    ]);
    expect(refusal?.httpStatus).toBe(429);
    expect(refusal?.retryAfterSeconds).toBe(1);
    const body = JSON.parse(refusal?.payload.toString() ?? "null");
    expect(body.map((r: {id: unknown}) => r.id)).toEqual([2, "x"]);
    expect(body[0].error).toEqual({code: -32005, message: "limit exceeded: 1 requests/s for API key k1"});
  });
});
