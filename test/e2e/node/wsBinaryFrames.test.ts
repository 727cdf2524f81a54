// End-to-end: a WebSocket client that sends its requests as binary frames of UTF-8 JSON is served
// (docs/rpc.md §4.1). web3.py 7's `WebSocketProvider` does so by default: its `socket_send` passes
// the request's bytes to `websockets`' `send`, which sends bytes as a binary frame, text only with
// `use_text_frames=True` (ethereum/web3.py, web3/providers/persistent/websocket.py); the bytes are
// `json.dumps` of the request (separators ", " and ": ") and a batch is "[" + ", ".join(...) + "]".
// The frames below are built that way with the `ws` package (web3.py itself is not installed here).
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import WebSocket from "ws";
import {rpc} from "../support/jsonRpc.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

let node: RunningNode;
let socket: WebSocket;
beforeAll(async () => {
  node = await startNode(["--p2p.enabled", "false"]);
  socket = new WebSocket(node.wsUrl);
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
});
afterAll(async () => {
  socket?.close();
  await node?.stop();
});

/** Sends `payload` (a string goes as a text frame, a Buffer as a binary one) and reads the answer's frame. */
function exchange(payload: string | Buffer): Promise<{isBinary: boolean; json: unknown}> {
  return new Promise((resolve) => {
    socket.once("message", (data, isBinary) => resolve({isBinary, json: JSON.parse(String(data))}));
    socket.send(payload, {binary: Buffer.isBuffer(payload)});
  });
}

/** web3.py's encoding of a request: Python's `json.dumps` with its default separators. */
const web3pyRequest = (id: number, method: string) =>
  `{"jsonrpc": "2.0", "method": "${method}", "params": [], "id": ${id}}`;

describe("WebSocket frames of either type", () => {
  it("answers eth_chainId sent as a text frame and as a binary frame, both as text frames", async () => {
    const chainId = await rpc<string>(node.httpUrl, "eth_chainId");
    const text = await exchange(web3pyRequest(0, "eth_chainId"));
    const binary = await exchange(Buffer.from(web3pyRequest(1, "eth_chainId"), "utf8"));
    expect(text).toEqual({isBinary: false, json: {jsonrpc: "2.0", id: 0, result: chainId}});
    expect(binary).toEqual({isBinary: false, json: {jsonrpc: "2.0", id: 1, result: chainId}});
  });

  it("answers a batch sent as a binary frame, as a text frame", async () => {
    const batch = `[${web3pyRequest(2, "eth_chainId")}, ${web3pyRequest(3, "eth_blockNumber")}]`;
    const answer = await exchange(Buffer.from(batch, "utf8"));
    expect(answer.isBinary).toBe(false);
    expect(answer.json).toEqual([
      {jsonrpc: "2.0", id: 2, result: await rpc<string>(node.httpUrl, "eth_chainId")},
      {jsonrpc: "2.0", id: 3, result: expect.stringMatching(/^0x[0-9a-f]+$/)},
    ]);
  });

  it("answers a binary frame that is not UTF-8 with -32700 and keeps serving the connection", async () => {
    const bad = Buffer.concat([
      Buffer.from('{"jsonrpc": "2.0", "method": "eth_chainId", "id": "'),
      Buffer.from([0xff]),
      Buffer.from('"}'),
    ]);
    expect(await exchange(bad)).toEqual({
      isBinary: false,
      json: {jsonrpc: "2.0", id: null, error: {code: -32700, message: "JSON parse error"}},
    });
    expect((await exchange(Buffer.from(web3pyRequest(4, "eth_chainId")))).json).toMatchObject({id: 4});
  });
});
