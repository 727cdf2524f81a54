/** With the gateway on, the `request` events (the node's metrics) tell each request's API key id. */
import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {defaultKeyLimits, defaultKeyPermissions, writeKeysFile} from "../../../src/gateway/keysFile.ts";
import {hashSecret, newSecret} from "../../../src/gateway/secret.ts";
import {defaultRpcOptions} from "../../../src/index.ts";
import {TestNode} from "../../support/node.ts";

const secret = newSecret();
const observed: {method: string; keyId: string | undefined}[] = [];
let node: TestNode;

beforeAll(async () => {
  const keysFile = join(mkdtempSync(join(tmpdir(), "xchain-gw-")), "keys.json");
  await writeKeysFile(keysFile, {
    version: 1,
    keys: [
      {
        id: "metrics-key",
        sha256: hashSecret(secret),
        label: "",
        created: "",
        permissions: defaultKeyPermissions(),
        limits: defaultKeyLimits(),
      },
    ],
  });
  node = await TestNode.start({
    rpc: {gateway: {...defaultRpcOptions.gateway, enabled: true, keysFile}},
  });
  node.server.events.on("request", ({method, keyId}) => void observed.push({method, keyId}));
});
afterAll(() => node.close());

describe("the request events behind the gateway", () => {
  it("is told the key id, never the key", async () => {
    const response = await fetch(`${node.url}/${secret}`, {
      method: "POST",
      headers: {"content-type": "application/json"},
      body: JSON.stringify({jsonrpc: "2.0", id: 1, method: "eth_chainId", params: []}),
    });
    expect(((await response.json()) as {result: string}).result).toBe("0x21");
    expect(observed).toContainEqual({method: "eth_chainId", keyId: "metrics-key"});
    expect(JSON.stringify(observed)).not.toContain(secret);
  });
});
