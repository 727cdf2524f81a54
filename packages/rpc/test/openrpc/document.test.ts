/** The OpenRPC document built from a registry (docs/rpc.md §4.9), and the schemas codecs describe. */
import {Ajv} from "ajv";
import {describe, expect, it} from "vitest";
import {MethodRegistry, wireName} from "../../src/jsonrpc/registry.ts";
import {OPENRPC_VERSION, openRpcDocument} from "../../src/openrpc/document.ts";
import {anvilUint} from "../../src/params/anvilNumber.ts";
import {blockRef} from "../../src/params/blockRef.ts";
import {type Codec, oneOrMany, withSchema} from "../../src/params/codec.ts";
import {address, quantity} from "../../src/params/hex.ts";
import {method, optional, param, unsupported} from "../../src/params/method.ts";
import {traceBlockRef} from "../../src/params/traceFilter.ts";

const undescribed = (value: unknown) => value;

const registry = new MethodRegistry(
  [
    {
      namespace: "eth",
      methods: {
        getBalance: method([param("address", address), optional("block", blockRef)], () => null),
        free: method([param("anything", undescribed)], () => null),
      },
    },
    {namespace: "evm", methods: {mine: method([optional("timestamp", quantity)], () => null)}},
    {namespace: "shh", methods: {post: unsupported("no whisper here")}},
    {namespace: "rpc", methods: {discover: {...method([], () => null), result: {type: "object"}}}},
  ],
  {isNamespaceEnabled: (ns) => ns !== "evm", enabledMethods: [], disabledMethods: ["eth_free"]},
);
const doc = openRpcDocument(registry.entries(), "1.2.3");
const byName = (name: string) => doc.methods.find((m) => m.name === name);

describe("openRpcDocument", () => {
  it("names the OpenRPC version and the node", () => {
    expect(doc.openrpc).toBe(OPENRPC_VERSION);
    expect(doc.openrpc).toMatch(/^1\.2\.\d+$/);
    expect(doc.info).toMatchObject({title: "xchain", version: "1.2.3"});
  });

  it("lists every registered method once, sorted, with its namespace", () => {
    expect(doc.methods.map((m) => m.name)).toEqual(registry.names());
    expect(doc.methods.map((m) => m["x-namespace"])).toEqual(["eth", "eth", "evm", "rpc", "shh"]);
    expect(registry.names()).toContain("rpc.discover");
  });

  it("gives each parameter its name, whether required and its codec's schema", () => {
    expect(byName("eth_getBalance")?.params).toEqual([
      {name: "address", required: true, schema: address.schema},
      {name: "block", required: false, schema: blockRef.schema},
    ]);
    expect(address.schema).toMatchObject({type: "string", pattern: "^0x[0-9a-fA-F]{40}$"});
    expect(byName("eth_getBalance")?.paramStructure).toBe("by-position");
  });

  it("documents an undescribed parameter or result as any value, saying so", () => {
    const [anything] = byName("eth_free")?.params ?? [];
    expect(anything).toMatchObject({name: "anything", required: true, schema: {}});
    expect(anything?.description).toContain("docs/rpc.md");
    expect(byName("eth_free")?.result).toMatchObject({name: "result", schema: {}});
    expect(byName("eth_free")?.result.description).toContain("docs/rpc.md");
    expect(byName("rpc.discover")?.result).toEqual({name: "result", schema: {type: "object"}});
  });

  it("marks which methods are enabled, and the unsupported ones with their reason", () => {
    expect(doc.methods.map((m) => [m.name, m["x-enabled"]])).toEqual([
      ["eth_free", false],
      ["eth_getBalance", true],
      ["evm_mine", false],
      ["rpc.discover", true],
      ["shh_post", false],
    ]);
    expect(byName("shh_post")).toMatchObject({"x-unsupported": "no whisper here", params: []});
    expect(byName("eth_getBalance")).not.toHaveProperty("x-unsupported");
  });
});

describe("wireName", () => {
  it("joins rpc with a dot, as JSON-RPC 2.0 reserves rpc.*, and other namespaces with _", () => {
    expect([wireName("rpc", "discover"), wireName("eth", "call")]).toEqual(["rpc.discover", "eth_call"]);
  });
});

describe("codec schemas", () => {
  it("are what withSchema attaches, and a codec still decodes as before", () => {
    const codec = withSchema({type: "string"}, (value) => String(value));
    expect(codec.schema).toEqual({type: "string"});
    expect(codec(1, "x")).toBe("1");
    expect(quantity("0x10", "q")).toBe(16n);
  });

  it("match the values the codecs accept", () => {
    const pattern = (schema: unknown) => new RegExp((schema as {pattern: string}).pattern);
    expect(pattern(quantity.schema).test("0x0")).toBe(true);
    expect(pattern(quantity.schema).test("0x01")).toBe(false);
    expect(pattern(address.schema).test(`0x${"ab".repeat(20)}`)).toBe(true);
    expect(blockRef.schema).toHaveProperty("anyOf");
  });

  // A value two alternatives both describe (a block hash not starting with a zero digit is also
  // QUANTITY-shaped) is valid: a `oneOf` of them refused it.
  const ajv = new Ajv({strict: false});
  const HASH = "0xa236ef142c6cf891d13f0a5344e9f7495bd33eaef5cf126bc0a0df9276e9d38d";
  const cases: [string, Codec<unknown>, unknown][] = [
    ["a block reference by hash", blockRef, HASH],
    ["a block reference by number", blockRef, "0x10"],
    ["trace_block's block by hash", traceBlockRef, HASH],
    ["an anvil number as a QUANTITY", anvilUint, "0x10"],
    ["an anvil number with leading zeros", anvilUint, "0x0010"],
    ["many values of an undescribed codec", oneOrMany(undescribed), [1, 2]],
  ];
  for (const [what, codec, value] of cases) {
    it(`describe ${what} as valid, as the codec accepts it`, () => {
      expect(() => codec(value, "arg")).not.toThrow();
      const validate = ajv.compile(codec.schema ?? {});
      expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
    });
  }
});
