/**
 * Every -32603 is a bug of the node (docs/reliability.md §6): the answer says nothing of its cause,
 * so the log must hold it whole. A real pino logger, as the node runs it, writes the line to a
 * stream; the line must carry the error's message and stack under `err` (pino serializes an Error
 * only there: under any other key it writes `{}`).
 */
import {Writable} from "node:stream";
import {DatabaseError, DatabaseErrorCode} from "@xchain/db";
import type {Logger} from "@xchain/utils";
import pino from "pino";
import {describe, expect, it} from "vitest";
import {createErrorMapper} from "../src/errorMapping.ts";
import {dispatch} from "../src/jsonrpc/dispatch.ts";
import {MethodRegistry} from "../src/jsonrpc/registry.ts";
import {ResponseBudget, ResponseMemory} from "../src/jsonrpc/responseBudget.ts";
import {OPEN_PRINCIPAL} from "./support/sender.ts";

/** A pino logger at info writing JSON lines into `lines`, as the node's does to stdout. */
function jsonLogger(): {logger: Logger; lines: Record<string, unknown>[]} {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n")) if (line !== "") lines.push(JSON.parse(line));
      done();
    },
  });
  return {logger: pino({level: "info", base: undefined}, stream), lines};
}

function failWith(error: Error): MethodRegistry {
  return new MethodRegistry(
    [
      {
        namespace: "test",
        methods: {
          fail: {
            invoke: () => {
              throw error;
            },
          },
        },
      },
    ],
    {isNamespaceEnabled: () => true, enabledMethods: [], disabledMethods: []},
  );
}

async function answer(error: Error, logger: Logger): Promise<unknown> {
  const options = {registry: failWith(error), maxBatchSize: 10, maxJsonDepth: 10, mapError: createErrorMapper(logger)};
  const {payload} = await dispatch(JSON.stringify({jsonrpc: "2.0", id: 1, method: "test_fail"}), options, {
    transport: "http",
    client: {address: "127.0.0.1", connectionId: 1, key: "127.0.0.1#1"},
    ...OPEN_PRINCIPAL,
    signal: new AbortController().signal,
    budget: new ResponseBudget(10_000, new ResponseMemory(10_000)),
  });
  return JSON.parse(payload?.toString("utf8") ?? "null");
}

describe("an internal error", () => {
  it.each([
    ["a plain Error", new TypeError("cannot read properties of undefined")],
    [
      "a NodeError whose code is a fault",
      new DatabaseError({code: DatabaseErrorCode.FAILED, path: "/db", reason: "closed"}),
    ],
  ])("answered -32603 is logged with its message and stack: %s", async (_name, error) => {
    const {logger, lines} = jsonLogger();
    expect(await answer(error, logger)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {code: -32603, message: "Internal server error"},
    });
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({level: 50, method: "test_fail", msg: "rpc method failed"});
    const err = line?.err as {type: string; message: string; stack: string};
    expect(err.type).toBe(error.name);
    expect(err.message).toBe(error.message);
    expect(err.stack).toBe(error.stack);
    // The stack says where it was thrown: this file, where the error was made.
    expect(err.stack).toContain("internalErrorLog.test.ts");
  });
});
