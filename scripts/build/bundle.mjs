// The start bundle (docs/performance.md §13): the command line and the worker threads' entries, each
// one ESM file, with the code they share in chunks and every `import()` kept lazy (a chunk of its own),
// built with esbuild from the dist/ files `tsc -b` wrote (their source maps carried through to the
// TypeScript). Loading a few large files instead of about 750 small ones (1,800 with p2p) takes most
// of the start's module resolution, linking and per-file work away. bin/xchain.js runs it while
// packages/node/bundle/manifest.json says it matches dist/ (packages/node/src/cli/bundleEntry.ts).
// The bundle's files are packages/node/bundle/<build>/dist/ (cli/program.js, calls/callWorker.js,
// senders/recoveryWorker.js, chunks/) with meta.json, esbuild's metafile (for its analyser).
// Run by `npm run build` after `tsc -b`:   node scripts/build/bundle.mjs [--if-stale]
// (--if-stale: only when the bundle is missing or older than dist/, as `npm start` runs it.)
import {existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync} from "node:fs";
import {dirname, join, relative, resolve} from "node:path";
import * as esbuild from "esbuild";
import {BUNDLE_DIR, BUNDLE_MANIFEST, freshBundle} from "../../packages/node/dist/cli/bundleEntry.js";

const root = join(import.meta.dirname, "..", "..");
const nodeDir = join(root, "packages", "node");
const bundleDir = join(nodeDir, BUNDLE_DIR);
if (process.argv.includes("--if-stale") && freshBundle(nodeDir, {})) process.exit(0);

// Each build has a directory of its own, named in the manifest, which is written last (then renamed
// into place): bin/xchain.js never sees half a bundle, and a node started from the previous build still
// finds that build's chunks (a command's or a method's `import()`) until the build after this one.
const previous = readManifest()?.build;
const build = Date.now().toString(36);
const buildDir = join(bundleDir, build);
// The dist/ layout is kept below dist/ (entries and chunks one directory deep): a worker is started by
// `new URL("../../dist/<dir>/<worker>.js", import.meta.url)` from any of these files, which finds it there.
const outdir = join(buildDir, "dist");
const entryPoints = {
  "cli/program": "packages/node/dist/cli/program.js",
  // The call workers (docs/performance.md §8) and sender recovery's (§3).
  "calls/callWorker": "packages/execution/dist/calls/callWorker.js",
  "senders/recoveryWorker": "packages/chain/dist/senders/recoveryWorker.js",
};
// Loaded by Node from node_modules at run time: the native bindings (each found by node-gyp-build
// beside its package's files: secp256k1's is required by name in @xchain/utils, classic-level's below)
// and ws's optional native helpers (absent: ws goes on without them).
const external = ["secp256k1", "bufferutil", "utf-8-validate"];
/** classic-level's JavaScript is bundled; its `./binding` (node-gyp-build of `__dirname`) stays in its package. */
const nativeBindings = {
  name: "native-bindings",
  setup(build) {
    build.onResolve({filter: /^\.\/binding$/}, (args) =>
      /[/\\]node_modules[/\\]classic-level[/\\]/.test(args.importer)
        ? {path: "classic-level/binding.js", external: true}
        : undefined,
    );
  },
};

const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints,
  outdir,
  entryNames: "[dir]/[name]",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: "linked",
  metafile: true,
  logLevel: "warning",
  external,
  plugins: [nativeBindings],
  mainFields: ["module", "main"],
  // The bundled CommonJS packages call `require`, which an ES module does not have.
  banner: {
    js: 'import {createRequire as __xchainRequire} from "node:module"; const require = __xchainRequire(import.meta.url);',
  },
  define: {__XCHAIN_BUNDLE__: "true"},
});

// Every worker file or other file a bundled module finds beside itself must be there.
const outputs = Object.keys(result.metafile.outputs).filter((name) => name.endsWith(".js"));
for (const file of outputs) {
  for (const [, target] of readFileSync(join(root, file), "utf8").matchAll(
    /new URL\("([^"]+)", import\.meta\.url\)/g,
  )) {
    if (!existsSync(resolve(dirname(join(root, file)), target))) {
      throw new Error(`${file} refers to ${target}, which the bundle does not have`);
    }
  }
}

// Scope hoisting renames a top-level name that another module of the chunk has too (two `AbortError`s
// become `AbortError` and `AbortError2`), and a class's `name` is its binding's. xchain's errors report
// `new.target.name` (NodeError): every error class the packages' dist/ declares must keep its name.
// (esbuild's keepNames would keep every name, at 35 ms of the start: docs/performance.md §13.)
const declared = /^(?:export )?class ([A-Za-z_$][\w$]*) extends [\w$]*Error\b/gm;
for (const file of outputs) {
  // A module's code follows its `// <path>` comment, in one or more places (its imports hoisted apart).
  const parts = readFileSync(join(root, file), "utf8").split(/^\/\/ (packages\/[^/]+\/dist\/\S+)$/m);
  const modules = new Map();
  for (let i = 1; i < parts.length; i += 2) modules.set(parts[i], (modules.get(parts[i]) ?? "") + parts[i + 1]);
  for (const [module, code] of modules) {
    for (const [, name] of readFileSync(join(root, module), "utf8").matchAll(declared)) {
      if (!new RegExp(`^(?:var ${name} = class\\b|class ${name}\\b)`, "m").test(code)) {
        throw new Error(
          `class ${name} of ${module} was renamed in ${file}: rename one of the classes that share its name, or it reports the wrong name`,
        );
      }
    }
  }
}

// The tsbuildinfo of each package whose dist/ went into the bundle, with its time now (bundleEntry.ts),
// and npm's record of node_modules, which every install rewrites.
const inputs = {};
const installed = join("node_modules", ".package-lock.json");
if (existsSync(join(root, installed))) inputs[installed] = statSync(join(root, installed)).mtimeMs;
for (const input of Object.keys(result.metafile.inputs)) {
  const match = /^packages\/([^/]+)\/dist\//.exec(input);
  if (!match) continue;
  const buildInfo = join("packages", match[1], "tsconfig.tsbuildinfo");
  inputs[buildInfo] ??= statSync(join(root, buildInfo)).mtimeMs;
}
writeFileSync(join(buildDir, "meta.json"), JSON.stringify(result.metafile));
const manifest = join(bundleDir, BUNDLE_MANIFEST);
writeFileSync(`${manifest}.next`, `${JSON.stringify({build, inputs}, null, 2)}\n`);
renameSync(`${manifest}.next`, manifest);
for (const entry of readdirSync(bundleDir, {withFileTypes: true})) {
  if (entry.isDirectory() && entry.name !== build && entry.name !== previous) {
    rmSync(join(bundleDir, entry.name), {recursive: true, force: true});
  }
}

/** The current manifest, if any. */
function readManifest() {
  try {
    return JSON.parse(readFileSync(join(bundleDir, BUNDLE_MANIFEST), "utf8"));
  } catch {
    return undefined;
  }
}

const bytes = outputs.reduce((sum, name) => sum + result.metafile.outputs[name].bytes, 0);
console.log(
  `start bundle: ${relative(root, buildDir)}, ${outputs.length} files, ${(bytes / 1e6).toFixed(1)} MB of ` +
    `JavaScript, from ${Object.keys(inputs).length - 1} packages' dist/ and ${Object.keys(result.metafile.inputs).length} modules`,
);
