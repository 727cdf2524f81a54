// What the fork e2e tests share (test/e2e/fork/): the flags of a fork node, a transaction sent and mined,
// and the JSON-RPC error a request answers.
import {expect} from "vitest";
import {NO_INTERVAL_BLOCKS} from "./devClients.ts";
import {JsonRpcFault, rpc, waitForReceipt} from "./jsonRpc.ts";

/** Fork flags; two retries of a failed upstream call (0.75 s), within the RPC's 5 s budget of a request. */
export function forkFlags(url: string, ...more: string[]): string[] {
  return ["--fork.url", url, "--fork.retries", "2", ...NO_INTERVAL_BLOCKS, ...more];
}

/** Sends `tx` with eth_sendTransaction (gas price 0 unless given) and waits for its successful receipt. */
export async function send(url: string, tx: Record<string, unknown>): Promise<Record<string, unknown>> {
  const hash = await rpc<string>(url, "eth_sendTransaction", [{gasPrice: "0x0", ...tx}]);
  const receipt = await waitForReceipt(url, hash);
  expect(receipt.status).toBe("0x1");
  return receipt;
}

/** The JSON-RPC error `request` answers. */
export async function failure(request: Promise<unknown>): Promise<JsonRpcFault> {
  const error = await request.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(JsonRpcFault);
  return error as JsonRpcFault;
}
