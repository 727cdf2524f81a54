/**
 * A key revoked while its WebSocket has calls running and waiting (docs/gateway.md §1): every call
 * read gets an answer, the running one its result and the waiting ones -32001, and only then the
 * connection closes with 1008. The running call is held by the test, so nothing depends on timing.
 */
import {mkdtempSync} from "node:fs";
import type {AddressInfo} from "node:net";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {noopLogger} from "@xchain/utils";
import {afterEach, describe, expect, it} from "vitest";
import WebSocket from "ws";
import {createErrorMapper} from "../../../src/errorMapping.ts";
import {Gateway} from "../../../src/gateway/gateway.ts";
import {defaultKeyLimits, defaultKeyPermissions, writeKeysFile} from "../../../src/gateway/keysFile.ts";
import {hashSecret, newSecret} from "../../../src/gateway/secret.ts";
import type {DispatchOptions} from "../../../src/jsonrpc/dispatch.ts";
import {MethodRegistry} from "../../../src/jsonrpc/registry.ts";
import {defaultRpcOptions} from "../../../src/options.ts";
import {method} from "../../../src/params/method.ts";
import {InFlightRequests} from "../../../src/transport/inFlight.ts";
import {createWsTransport, type WsTransport} from "../../../src/transport/ws.ts";

/** `test_held` answers "done" when the test releases it; `started` resolves when it runs. */
function heldMethod() {
  let release: () => void = () => undefined;
  let started: () => void = () => undefined;
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const held = method([], async () => {
    started();
    await released;
    return "done";
  });
  return {held, running, release};
}

let transport: WsTransport | undefined;
let gateway: Gateway | undefined;
afterEach(() => {
  transport?.closeClients();
  transport?.server.close();
  gateway?.close();
});

describe("a revoked key's WebSocket", () => {
  it("answers the calls it has read, then closes with 1008", async () => {
    const {held, running, release} = heldMethod();
    const registry = new MethodRegistry([{namespace: "eth", methods: {held}}], {
      isNamespaceEnabled: () => true,
      enabledMethods: [],
      disabledMethods: [],
    });
    const dispatchOptions: DispatchOptions = {
      registry,
      maxBatchSize: 10,
      maxJsonDepth: 10,
      mapError: createErrorMapper(noopLogger),
    };
    const secret = newSecret();
    const keysFile = join(mkdtempSync(join(tmpdir(), "xchain-gw-")), "keys.json");
    const record = {
      id: "k1",
      sha256: hashSecret(secret),
      label: "",
      created: "",
      permissions: defaultKeyPermissions(),
      limits: defaultKeyLimits(),
    };
    await writeKeysFile(keysFile, {version: 1, keys: [record]});
    gateway = await Gateway.open(keysFile, noopLogger, {pollMs: 60_000, debounceMs: 60_000});
    transport = createWsTransport(
      dispatchOptions,
      {
        ...defaultRpcOptions,
        maxInFlightPerConnection: 1,
        requests: new InFlightRequests(1_000_000),
        admission: gateway,
      },
      noopLogger,
    );
    const server = transport.server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const socket = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/${secret}`);
    const answers: unknown[] = [];
    socket.on("message", (data) => answers.push(JSON.parse(String(data))));
    const closed = new Promise<number>((resolve) => socket.on("close", resolve));
    await new Promise((resolve) => socket.once("open", resolve));

    socket.send(JSON.stringify({jsonrpc: "2.0", id: 1, method: "eth_held", params: []}));
    await running;
    // One call at a time: this one waits behind the running one.
    socket.send(JSON.stringify([{jsonrpc: "2.0", id: 2, method: "eth_held", params: []}]));
    await expect.poll(() => socket.bufferedAmount).toBe(0);
    await writeKeysFile(keysFile, {version: 1, keys: []});
    await gateway.reload();
    const revoked = {code: -32001, message: "unauthorized: API key k1 revoked"};
    await expect.poll(() => answers).toEqual([[{jsonrpc: "2.0", id: 2, error: revoked}]]);
    expect(socket.readyState).toBe(WebSocket.OPEN);
    // A call sent after the revocation is answered too, before the connection closes.
    socket.send(JSON.stringify({jsonrpc: "2.0", id: 3, method: "eth_held", params: []}));
    await expect.poll(() => answers).toHaveLength(2);
    release();
    expect(await closed).toBe(1008);
    expect(answers).toEqual([
      [{jsonrpc: "2.0", id: 2, error: revoked}],
      {jsonrpc: "2.0", id: 3, error: revoked},
      {jsonrpc: "2.0", id: 1, result: "done"},
    ]);
  });
});
