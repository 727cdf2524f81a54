/**
 * db_* on the wire (docs/rpc.md §4.7): parameters decoded or refused by name, `true` on a write, the
 * value or null on a read, and the store's refusals mapped to -32602 and -32005 naming their key.
 * Requests go through `dispatch` in-process, as the transports call it.
 */
import {MemoryStore} from "@xchain/db";
import {noopLogger} from "@xchain/utils";
import {beforeEach, describe, expect, it} from "vitest";
import {DappDb} from "../../src/dappDb.ts";
import {createErrorMapper} from "../../src/errorMapping.ts";
import {type DispatchOptions, dispatch} from "../../src/jsonrpc/dispatch.ts";
import {MethodRegistry} from "../../src/jsonrpc/registry.ts";
import {ResponseBudget, ResponseMemory} from "../../src/jsonrpc/responseBudget.ts";
import {dbMethods} from "../../src/modules/db.ts";
import {OPEN_PRINCIPAL} from "../support/sender.ts";

const BUDGET = 1024 * 1024;
const ALL_ON = {isNamespaceEnabled: () => true, enabledMethods: [], disabledMethods: []};

let options: DispatchOptions;

/** A registry of the db namespace over `dappDb` (absent: a node built without the store). */
function serve(dappDb: DappDb | undefined): DispatchOptions {
  const registry = new MethodRegistry([{namespace: "db", methods: dbMethods({dappDb})}], ALL_ON);
  return {registry, maxBatchSize: 50, maxJsonDepth: 64, mapError: createErrorMapper(noopLogger)};
}

/** The response `{result}` or `{error}` of one request. */
async function call(method: string, params: unknown[]): Promise<{result?: unknown; error?: unknown}> {
  const text = JSON.stringify({jsonrpc: "2.0", id: 1, method, params});
  const {payload} = await dispatch(text, options, {
    transport: "http",
    client: {address: "127.0.0.1", connectionId: 1, key: "db-test"},
    ...OPEN_PRINCIPAL,
    signal: new AbortController().signal,
    budget: new ResponseBudget(BUDGET, new ResponseMemory(BUDGET)),
  });
  const {result, error} = JSON.parse(payload?.toString("utf8") ?? "null");
  return error === undefined ? {result} : {error};
}

beforeEach(async () => {
  options = serve(
    await DappDb.open({maxKeyBytes: 16, maxValueBytes: 8, maxTotalBytes: 30}, {store: new MemoryStore()}),
  );
});

describe("db_* methods", () => {
  it("answer true on a write and the value on a read, strings and hex in one key space", async () => {
    expect(await call("db_putString", ["app", "name", "zé"])).toEqual({result: true});
    expect(await call("db_getString", ["app", "name"])).toEqual({result: "zé"});
    expect(await call("db_getHex", ["app", "name"])).toEqual({result: "0x7ac3a9"});
    expect(await call("db_putHex", ["app", "raw", "0x6869"])).toEqual({result: true});
    expect(await call("db_getHex", ["app", "raw"])).toEqual({result: "0x6869"});
    expect(await call("db_getString", ["app", "raw"])).toEqual({result: "hi"});
    expect(await call("db_putString", ["app", "empty", ""])).toEqual({result: true});
    expect(await call("db_getString", ["app", "empty"])).toEqual({result: ""});
    expect(await call("db_getHex", ["app", "empty"])).toEqual({result: "0x"});
  });

  it("answer null for a key nothing was stored under", async () => {
    expect(await call("db_getString", ["app", "missing"])).toEqual({result: null});
    expect(await call("db_getHex", ["app", "missing"])).toEqual({result: null});
  });

  it.each([
    ["db_putString", ["", "k", "v"], "invalid argument 0 (database): must not be empty"],
    ["db_getString", ["app", ""], "invalid argument 1 (key): must not be empty"],
    ["db_putString", [1, "k", "v"], "invalid argument 0 (database): expected a string, got number"],
    ["db_putString", ["app", "k", null], "invalid argument 2 (value): expected a string, got null"],
    ["db_putString", ["app", "k", 5], "invalid argument 2 (value): expected a string, got number"],
    [
      "db_putString",
      ["app", "k", "a\ud800b"],
      "invalid argument 2 (value): not valid Unicode: the string holds a lone surrogate",
    ],
    [
      "db_getHex",
      ["app\udc00", "k"],
      "invalid argument 0 (database): not valid Unicode: the string holds a lone surrogate",
    ],
    ["db_putString", ["app", "k", "v", "extra"], "too many arguments, want at most 3"],
    ["db_getString", ["app"], "missing value for required argument 1 (key)"],
  ])("%s(%j) is -32602: %s", async (method, params, message) => {
    expect(await call(method, params)).toEqual({error: {code: -32602, message}});
  });

  it("refuse a bad hex value by argument", async () => {
    const {error} = await call("db_putHex", ["app", "k", "0x123"]);
    expect(error).toMatchObject({code: -32602, message: expect.stringMatching(/^invalid argument 2 \(value\): /)});
  });

  it("refuse a value or key past its bound with -32602, and a full store with -32005, naming the config key", async () => {
    expect(await call("db_putHex", ["app", "k", "0x112233445566778899"])).toEqual({
      error: {code: -32602, message: "limit exceeded: the value is 9 bytes, more than rpc.db.maxValueBytes (8)"},
    });
    expect(await call("db_putString", ["app", "k-that-is-long", "v"])).toEqual({
      error: {
        code: -32602,
        message: "limit exceeded: the database name and key are 17 bytes together, more than rpc.db.maxKeyBytes (16)",
      },
    });
    expect(await call("db_putString", ["app", "a", "12345678"])).toEqual({result: true});
    expect(await call("db_putString", ["app", "b", "12345678"])).toEqual({result: true});
    expect(await call("db_putString", ["app", "c", "1234"])).toEqual({
      error: {
        code: -32005,
        message:
          "limit exceeded: the db_* store holds 24 bytes, and this write would make it 32, more than rpc.db.maxTotalBytes (30)",
      },
    });
    expect(await call("db_getString", ["app", "c"])).toEqual({result: null});
  });

  it("answer -32000 for db_getString of bytes that are not UTF-8", async () => {
    await call("db_putHex", ["app", "bin", "0xff"]);
    expect(await call("db_getString", ["app", "bin"])).toEqual({
      error: {code: -32000, message: 'the value of "bin" in "app" is not UTF-8 text; read it with db_getHex'},
    });
  });

  it("answer -32601 not available on a node built without the store", async () => {
    options = serve(undefined);
    expect(await call("db_getString", ["app", "k"])).toEqual({
      error: {
        code: -32601,
        message: "the method db_getString does not exist/is not available: this node has no db_* store",
      },
    });
  });
});
