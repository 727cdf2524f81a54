/**
 * A key's rate holds whatever the body (docs/gateway.md §3): a batch takes one token per request, a
 * batch larger than the burst is refused at once naming the burst, and bodies refused before they
 * run (not JSON, over `maxBodyBytes`, over HTTP or WebSocket) take a token from their sender.
 * Each key has 1 request/s, so that the refill during a test (a few tokens at most on a loaded
 * machine) cannot hide a leak of ten.
 */
import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {WsClient} from "@xchain/test-utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {defaultKeyLimits, defaultKeyPermissions, writeKeysFile} from "../../../src/gateway/keysFile.ts";
import {hashSecret, newSecret} from "../../../src/gateway/secret.ts";
import {defaultRpcOptions} from "../../../src/index.ts";
import {TestNode} from "../../support/node.ts";

const BURST = 20;
const MAX_BODY_BYTES = 4096;
const KEY_IDS = ["batch", "over-burst", "garbage", "oversize", "ws-oversize"] as const;
const secrets = Object.fromEntries(KEY_IDS.map((id) => [id, newSecret()])) as Record<(typeof KEY_IDS)[number], string>;
let node: TestNode;

beforeAll(async () => {
  const keysFile = join(mkdtempSync(join(tmpdir(), "xchain-gw-")), "keys.json");
  await writeKeysFile(keysFile, {
    version: 1,
    keys: KEY_IDS.map((id) => ({
      id,
      sha256: hashSecret(secrets[id]),
      label: "",
      created: "",
      permissions: defaultKeyPermissions(),
      limits: {...defaultKeyLimits(), requestsPerSecond: 1, burst: BURST, maxBatchSize: 100},
    })),
  });
  node = await TestNode.start({
    rpc: {
      maxBodyBytes: MAX_BODY_BYTES,
      maxBatchSize: 100,
      gateway: {...defaultRpcOptions.gateway, enabled: true, keysFile},
    },
  });
});
afterAll(() => node.close());

const call = (id: number) => ({jsonrpc: "2.0", id, method: "eth_chainId", params: []});
const batchOf = (n: number) => Array.from({length: n}, (_, i) => call(i + 1));

/** POSTs `body` at `/<secret>`; the status and the parsed answer (undefined when not JSON). */
async function post(secret: string, body: string): Promise<{status: number; answer: unknown}> {
  const response = await fetch(`${node.url}/${secret}`, {
    method: "POST",
    headers: {"content-type": "application/json"},
    body,
  });
  const text = await response.text();
  try {
    return {status: response.status, answer: JSON.parse(text)};
  } catch {
    return {status: response.status, answer: undefined};
  }
}

describe("the gateway's rate per key", () => {
  it("takes one token per request of a batch", async () => {
    expect((await post(secrets.batch, JSON.stringify(batchOf(BURST)))).status).toBe(200);
    const after = await post(secrets.batch, JSON.stringify(batchOf(10)));
    expect(after.status).toBe(429);
    expect((after.answer as {error: {code: number}}[]).map((r) => r.error.code)).toEqual(Array(10).fill(-32005));
  });

  it("refuses a batch larger than the burst at once, naming the burst, each request under its id", async () => {
    const {status, answer} = await post(secrets["over-burst"], JSON.stringify(batchOf(50)));
    expect(status).toBe(400);
    const answers = answer as {id: number; error: {code: number; message: string}}[];
    expect(answers.map((r) => r.id)).toEqual(batchOf(50).map((c) => c.id));
    expect(answers[0]?.error).toEqual({
      code: -32005,
      message: `limit exceeded: a batch of 50 requests is more than the burst of ${BURST} for API key over-burst`,
    });
    // It took one token only: a batch of the burst less that one still passes.
    expect((await post(secrets["over-burst"], JSON.stringify(batchOf(BURST - 2)))).status).toBe(200);
  });

  it("charges a body that is not JSON one token", async () => {
    for (let i = 0; i < BURST; i++) {
      const {answer} = await post(secrets.garbage, "{not json");
      expect((answer as {error: {code: number}}).error.code).toBe(-32700);
    }
    const after = await post(secrets.garbage, JSON.stringify(batchOf(10)));
    expect(after.status).toBe(429);
    // Garbage beyond the rate gets the rate's answer.
    const more = await post(secrets.garbage, "{not json");
    expect(more.status).toBe(429);
    expect(more.answer).toMatchObject({id: null, error: {code: -32005}});
  });

  it("charges a body over maxBodyBytes one token", async () => {
    const large = JSON.stringify(batchOf(1)).padEnd(MAX_BODY_BYTES + 1, " ");
    for (let i = 0; i < BURST; i++) expect((await post(secrets.oversize, large)).status).toBe(413);
    expect((await post(secrets.oversize, JSON.stringify(batchOf(10)))).status).toBe(429);
  });

  it("charges a WebSocket message over maxBodyBytes one token", async () => {
    for (let i = 0; i < BURST; i++) {
      const client = await WsClient.connect(`${node.wsUrl}/${secrets["ws-oversize"]}`);
      client.socket.send("x".repeat(MAX_BODY_BYTES + 1));
      expect(await client.closeCode()).toBe(1009);
    }
    expect((await post(secrets["ws-oversize"], JSON.stringify(batchOf(10)))).status).toBe(429);
  });
});
