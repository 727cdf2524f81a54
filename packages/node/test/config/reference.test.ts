// node.config.toml at the repository root is the reference: every key, commented out, with its
// regtest default; docs/config.md lists every key with its flag.
import {mkdtempSync, readFileSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {flagName, readConfigFile, resolveNodeOptions} from "../../src/config/load.ts";
import {CONFIG_KEYS} from "../../src/config/schema.ts";
import {getPath, isTable, type OptionTree} from "../../src/config/tree.ts";
import {defaultNodeOptions} from "../../src/options.ts";

const root = join(import.meta.dirname, "..", "..", "..", "..");
const reference = readFileSync(join(root, "node.config.toml"), "utf8");

function leaves(tree: OptionTree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([name, value]) =>
    isTable(value) ? leaves(value, `${prefix}${name}.`) : [`${prefix}${name}`],
  );
}

describe("the configuration schema", () => {
  it("has a key for every option and an option for every required key", () => {
    const options = leaves(defaultNodeOptions as unknown as OptionTree);
    const keys = CONFIG_KEYS.map((k) => k.key);
    expect(options.filter((k) => !keys.includes(k))).toEqual([]);
    expect(CONFIG_KEYS.filter((k) => !k.optional && !options.includes(k.key))).toEqual([]);
  });
});

describe("node.config.toml", () => {
  it("is valid as it stands (every key commented out)", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "xchain-ref-")), "node.config.toml");
    writeFileSync(path, reference);
    expect(await readConfigFile(path)).toEqual(new Map());
  });

  it("documents every key once, with the regtest default", async () => {
    const uncommented = reference.replace(/^# ([A-Za-z]\w* = .*)$/gm, "$1");
    const path = join(mkdtempSync(join(tmpdir(), "xchain-ref-")), "node.config.toml");
    writeFileSync(path, uncommented);
    const values = await readConfigFile(path);
    expect([...values.keys()].sort()).toEqual(CONFIG_KEYS.map((k) => k.key).sort());
    const regtest = await resolveNodeOptions({});
    for (const spec of CONFIG_KEYS.filter((k) => !k.optional)) {
      expect(values.get(spec.key), spec.key).toEqual(getPath(regtest, spec.key));
    }
  });
});

describe("docs/config.md", () => {
  it("lists every key with its flag", () => {
    const doc = readFileSync(join(root, "docs", "config.md"), "utf8");
    for (const spec of CONFIG_KEYS) {
      expect(doc, spec.key).toContain(`| \`${spec.key}\` |`);
      expect(doc, spec.key).toContain(`\`${flagName(spec)}\``);
    }
  });
});
