// The internal dependencies of every package must be exactly those in docs/architecture.md.
import {readdirSync, readFileSync} from "node:fs";
import {join} from "node:path";
import {describe, expect, it} from "vitest";

const root = join(import.meta.dirname, "..");

function documentedDeps(): Map<string, string[]> {
  const doc = readFileSync(join(root, "docs", "architecture.md"), "utf8");
  const table = doc
    .split("<!-- architecture-table: package | internal deps -->")[1]
    ?.split("<!-- /architecture-table -->")[0];
  if (!table) throw new Error("architecture table markers not found");
  const rows = new Map<string, string[]>();
  for (const line of table.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    const name = cells[1]?.match(/^`([a-z0-9-]+)`$/)?.[1];
    if (!name) continue;
    const deps = cells[4] ?? "";
    rows.set(name, deps === "–" ? [] : deps.split(",").map((d) => d.trim()));
  }
  return rows;
}

describe("package dependencies", () => {
  const documented = documentedDeps();
  const packages = readdirSync(join(root, "packages"));

  it("documents every package", () => {
    expect([...documented.keys()].sort()).toEqual([...packages].sort());
  });

  for (const pkg of packages) {
    it(`${pkg} depends on exactly its documented packages`, () => {
      const json = JSON.parse(readFileSync(join(root, "packages", pkg, "package.json"), "utf8"));
      const internal = Object.keys(json.dependencies ?? {})
        .filter((d) => d.startsWith("@xchain/"))
        .map((d) => d.slice("@xchain/".length))
        .sort();
      expect(internal).toEqual([...(documented.get(pkg) ?? [])].sort());
      // tsc -b builds in reference order, so the project references must follow the dependencies.
      const tsconfig = JSON.parse(readFileSync(join(root, "packages", pkg, "tsconfig.json"), "utf8"));
      const refs = (tsconfig.references ?? []).map((r: {path: string}) => r.path.replace("../", "")).sort();
      expect(refs).toEqual(internal);
    });
  }
});
