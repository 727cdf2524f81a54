// A bare JSON-RPC client for the e2e tests: the answer's `result`, or its `error` as a thrown JsonRpcFault.

/** An error response. */
export class JsonRpcFault extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

let nextId = 1;

/** Calls `method` and returns its result; an error response throws `JsonRpcFault`. */
export async function rpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: {"content-type": "application/json"},
    body: JSON.stringify({jsonrpc: "2.0", id: nextId++, method, params}),
  });
  const body = (await response.json()) as {result?: T; error?: {code: number; message: string; data?: unknown}};
  if (body.error) throw new JsonRpcFault(body.error.code, body.error.message, body.error.data);
  return body.result as T;
}

/** The error a call answers; throws when it succeeds. */
export async function rpcRefusal(
  url: string,
  method: string,
  params: unknown[],
): Promise<{code: number; message: string}> {
  try {
    await rpc(url, method, params);
  } catch (e) {
    if (e instanceof JsonRpcFault) return {code: e.code, message: e.message};
    throw e;
  }
  throw new Error(`${method} did not fail`);
}

/** Polls `eth_getTransactionReceipt` until the transaction is included. */
export async function waitForReceipt(url: string, hash: string, timeoutMs = 20_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const receipt = await rpc<Record<string, unknown> | null>(url, "eth_getTransactionReceipt", [hash]);
    if (receipt) return receipt;
    if (Date.now() > deadline) throw new Error(`no receipt for ${hash} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
