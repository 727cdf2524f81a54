// The repository stands alone: code and docs cite only documents inside it, and every section they
// cite (`docs/protocol/header.md §2.3`) is a numbered heading, or a numbered list item under one.
import {existsSync, readdirSync, readFileSync} from "node:fs";
import {join, relative} from "node:path";
import {describe, expect, it} from "vitest";

const root = join(import.meta.dirname, "..");
const skipped = new Set(["node_modules", "dist", ".git", "coverage", "vectors"]);
const textFile = /\.(ts|mjs|js|md|toml|json)$/;

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, {withFileTypes: true})) {
    if (skipped.has(entry.name) || entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (textFile.test(entry.name) && entry.name !== "package-lock.json") yield path;
  }
}

const self = relative(root, import.meta.filename);
const files = [...walk(root)]
  .filter((path) => relative(root, path) !== self)
  .map((path) => ({path: relative(root, path), text: readFileSync(path, "utf8")}));

/** Forms that cite the documents this repository was seeded from, which live outside it. */
const outsideReferences: [string, RegExp][] = [
  ["a protocol.md section (B§…)", /\bB§\d/],
  ["a part of protocol.md (Part A, Part B)", /\bPart [AB]\b/],
  ["the seed API specification (rpc-api.md)", /\brpc-api(\.md| §| spec| hex)/],
  ["a gas.md section outside docs/protocol", /(?<!docs\/protocol\/)gas\.md §/],
  ["the shared directory beside the checkout", /\.\.\/shared\b|\bshared\/(spec|vectors|design|hooks)\b/],
  ["a design note of dependencies.md by number", /dependencies\.md G\d/],
  ["an issue of the tracker", /\bissues? \d+\b/],
];

/** `docs/a/b.md §1.2, §3` → the cited file and each section number. */
function* citations(text: string): Generator<{doc: string; section: string}> {
  const cite = /(docs\/[\w./-]+\.md)((?:(?:, | to | and | or |–| )§\d+(?:\.\d+)*)+)/g;
  for (const [, doc = "", list = ""] of text.matchAll(cite)) {
    for (const [, section = ""] of list.matchAll(/§(\d+(?:\.\d+)*)/g)) yield {doc, section};
  }
}

/**
 * The citable sections of a document: its numbered headings (`## 2. Title`, `### 2.3 Title`) and,
 * under a heading N, the items of its numbered lists as N.k (`§4.7` is item 7 of section 4).
 */
function sectionNumbers(doc: string): Set<string> {
  const numbers = new Set<string>();
  let current: string | undefined;
  for (const line of readFileSync(join(root, doc), "utf8").split("\n")) {
    const heading = line.match(/^#{1,6} (\d+(?:\.\d+)*)\.? /)?.[1];
    if (heading) {
      current = heading;
      numbers.add(current);
      continue;
    }
    if (/^#{1,6} /.test(line)) current = undefined;
    const item = line.match(/^\s{0,3}(\d+)\. /);
    if (item && current) numbers.add(`${current}.${item[1]}`);
  }
  return numbers;
}

describe("references", () => {
  for (const [what, pattern] of outsideReferences) {
    it(`no file cites ${what}`, () => {
      const hits = files.flatMap(({path, text}) =>
        text
          .split("\n")
          .map((line, i) => ({line, at: `${path}:${i + 1}`}))
          .filter(({line}) => pattern.test(line))
          .map(({line, at}) => `${at}: ${line.trim()}`),
      );
      expect(hits).toEqual([]);
    });
  }

  it("every cited docs section exists", () => {
    const headings = new Map<string, Set<string>>();
    const broken: string[] = [];
    for (const {path, text} of files) {
      for (const {doc, section} of citations(text)) {
        if (!existsSync(join(root, doc))) {
          broken.push(`${path}: ${doc} does not exist`);
          continue;
        }
        if (!headings.has(doc)) headings.set(doc, sectionNumbers(doc));
        if (!headings.get(doc)?.has(section)) broken.push(`${path}: ${doc} has no section ${section}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
