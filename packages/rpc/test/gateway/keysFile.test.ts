import {mkdtempSync, readFileSync, statSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {
  defaultKeyLimits,
  defaultKeyPermissions,
  KeysFileError,
  parseKeysFile,
  readKeysFile,
  writeKeysFile,
} from "../../src/gateway/keysFile.ts";

const HASH = "a".repeat(64);
const file = (keys: unknown[]) => JSON.stringify({version: 1, keys});

describe("parseKeysFile", () => {
  it("fills in default permissions and limits", () => {
    const parsed = parseKeysFile(file([{id: "k1", sha256: HASH}]), "f");
    expect(parsed.keys[0]).toEqual({
      id: "k1",
      sha256: HASH,
      label: "",
      created: "",
      permissions: defaultKeyPermissions(),
      limits: defaultKeyLimits(),
    });
  });

  it("reads every permission and limit", () => {
    const parsed = parseKeysFile(
      file([
        {
          id: "k1",
          sha256: HASH,
          permissions: {namespaces: ["eth", "trace"], methods: ["xchain_getStorageBytesAt"], stateOverride: true},
          limits: {requestsPerSecond: 5, burst: 7, logsMaxBlockRange: 100, traceMaxBlockRange: 10},
        },
      ]),
      "f",
    );
    expect(parsed.keys[0]?.permissions).toEqual({
      namespaces: ["eth", "trace"],
      methods: ["xchain_getStorageBytesAt"],
      stateOverride: true,
    });
    expect(parsed.keys[0]?.limits).toMatchObject({requestsPerSecond: 5, burst: 7, logsMaxBlockRange: 100});
  });

  it.each([
    ["not json", "{", "f: not JSON"],
    ["a bad version", JSON.stringify({version: 2, keys: []}), "f: version: expected 1, got 2"],
    ["an unknown field", file([{id: "k", sha256: HASH, secret: "x"}]), "keys[0]: unknown field secret"],
    ["a bad hash", file([{id: "k", sha256: "ab"}]), "keys[0].sha256: expected 64 lower-case hex digits"],
    ["a bad id", file([{id: "a b", sha256: HASH}]), "keys[0].id: expected 1 to 32 letters"],
    [
      "a duplicate id",
      file([
        {id: "k", sha256: HASH},
        {id: "k", sha256: HASH},
      ]),
      "keys[1].id: duplicate id k",
    ],
    [
      "one key hash under two ids",
      file([
        {id: "first", sha256: HASH},
        {id: "second", sha256: HASH},
      ]),
      "gateway keys file f: keys[1].sha256: key second has the same sha256 as key first",
    ],
    [
      "an unknown namespace",
      file([{id: "k", sha256: HASH, permissions: {namespaces: ["foo"]}}]),
      "keys[0].permissions.namespaces: unknown namespace foo",
    ],
    [
      "a bad limit",
      file([{id: "k", sha256: HASH, limits: {burst: 0}}]),
      "keys[0].limits.burst: expected an integer 1..1000000000, got 0",
    ],
    [
      "a bad state override",
      file([{id: "k", sha256: HASH, permissions: {stateOverride: "yes"}}]),
      "keys[0].permissions.stateOverride: expected true or false",
    ],
  ])("refuses %s, naming where", (_what, text, message) => {
    expect(() => parseKeysFile(text, "f")).toThrow(KeysFileError);
    expect(() => parseKeysFile(text, "f")).toThrow(message);
  });
});

describe("readKeysFile and writeKeysFile", () => {
  it("reads a missing file as no keys and writes one its owner only can read", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "xchain-keys-")), "keys.json");
    expect(await readKeysFile(path)).toEqual({version: 1, keys: []});
    const content = parseKeysFile(file([{id: "k1", sha256: HASH}]), path);
    await writeKeysFile(path, content);
    expect(await readKeysFile(path)).toEqual(content);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, "utf8")).not.toContain("tmp");
  });
});
