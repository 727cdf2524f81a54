/**
 * A node process's V8, through the inspector a test started it with (`--inspect=127.0.0.1:0`): a
 * full garbage collection and the heap used after it, so that a test claims what a load leaves
 * behind without waiting for V8's idle-time collector on a wall clock.
 */
import WebSocket from "ws";
import type {RunningNode} from "./xchainProcess.ts";

export interface NodeInspector {
  /** Runs a full garbage collection, then answers the bytes the JavaScript heap still uses. */
  heapUsedAfterGc(): Promise<number>;
  close(): void;
}

/** Connects to the inspector a node started with `--inspect=127.0.0.1:0` announced on stderr. */
export async function connectInspector(node: RunningNode): Promise<NodeInspector> {
  // Node writes the address before the script runs, so it is there once the node is ready.
  const url = /Debugger listening on (ws:\/\/\S+)/.exec(node.stderr())?.[1];
  if (!url) throw new Error(`the node announced no inspector: ${node.stderr()}`);
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  let nextId = 0;
  const waiting = new Map<number, (message: {result?: unknown; error?: unknown}) => void>();
  socket.on("message", (data) => {
    const message = JSON.parse(data.toString()) as {id?: number; result?: unknown; error?: unknown};
    if (message.id !== undefined) waiting.get(message.id)?.(message);
  });
  const send = (method: string) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++nextId;
      waiting.set(id, (message) => {
        waiting.delete(id);
        if (message.error) reject(new Error(`${method}: ${JSON.stringify(message.error)}`));
        else resolve(message.result);
      });
      socket.send(JSON.stringify({id, method}));
    });
  await send("HeapProfiler.enable");
  return {
    async heapUsedAfterGc() {
      await send("HeapProfiler.collectGarbage");
      const {usedSize} = (await send("Runtime.getHeapUsage")) as {usedSize: number};
      return usedSize;
    },
    close: () => socket.close(),
  };
}
