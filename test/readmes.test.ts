// Every package README says what the package owns, what it does not own, and maps its src/: a
// "## src" section with one "- `path` — what it is" line per file and folder of src/ (folders end in
// "/", paths are relative to src/). The map must name every entry of src/ and nothing else.
import {readdirSync, readFileSync} from "node:fs";
import {join} from "node:path";
import {describe, expect, it} from "vitest";

const packagesDir = join(import.meta.dirname, "..", "packages");
const packages = readdirSync(packagesDir, {withFileTypes: true})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** Every file and folder under `dir`, relative to it, folders with a trailing "/". */
function srcEntries(dir: string, prefix = ""): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((entry) =>
    entry.isDirectory()
      ? [`${prefix}${entry.name}/`, ...srcEntries(join(dir, entry.name), `${prefix}${entry.name}/`)]
      : [`${prefix}${entry.name}`],
  );
}

/** The lines of the `## <title>` section of a markdown text, up to the next heading of level 1 or 2. */
function section(text: string, title: string): string[] | undefined {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.trim() === `## ${title}`);
  if (start < 0) return undefined;
  const end = lines.findIndex((line, i) => i > start && /^#{1,2} /.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

const mapLine = /^- `([^`]+)` — \S/;

describe("package READMEs", () => {
  for (const name of packages) {
    describe(name, () => {
      const readme = readFileSync(join(packagesDir, name, "README.md"), "utf8");

      it("has an Owns and a Does not own section", () => {
        expect(section(readme, "Owns")?.some((line) => line.trim() !== "")).toBe(true);
        expect(section(readme, "Does not own")?.some((line) => line.trim() !== "")).toBe(true);
      });

      it("maps every file and folder of src/, and nothing else", () => {
        const lines = section(readme, "src");
        expect(lines, "a '## src' section").toBeDefined();
        const listed = (lines ?? []).filter((line) => line.startsWith("- "));
        const malformed = listed.filter((line) => !mapLine.test(line));
        expect(malformed, "lines not of the form - `path` — what it is").toEqual([]);
        const mapped = listed.map((line) => line.match(mapLine)?.[1] ?? "");
        const actual = srcEntries(join(packagesDir, name, "src"));
        expect(
          mapped.filter((path, i) => mapped.indexOf(path) !== i),
          "listed twice",
        ).toEqual([]);
        expect(
          actual.filter((path) => !mapped.includes(path)),
          "in src/ but not in the README's map",
        ).toEqual([]);
        expect(
          mapped.filter((path) => !actual.includes(path)),
          "in the README's map but not in src/",
        ).toEqual([]);
      });
    });
  }
});
