// Builds classic-level's LevelDB binding from its patched source (patches/classic-level+3.0.0.patch),
// replacing the prebuilt binary its package ships: only the patched build can open a database with
// `paranoidChecks` (LevelDB's paranoid_checks and verify_checksums; patches/README.md). Run by the root
// `postinstall` after patch-package; skipped when the build on disk was made from the same source
// for the same Node ABI. Needs python3, make and a C++ compiler (node-gyp's requirements).
import {spawnSync} from "node:child_process";
import {createHash} from "node:crypto";
import {existsSync, readFileSync, rmSync, statSync, writeFileSync} from "node:fs";
import {createRequire} from "node:module";
import {availableParallelism} from "node:os";
import {dirname, join} from "node:path";

const require = createRequire(import.meta.url);
const packageDir = dirname(require.resolve("classic-level/package.json"));
const binary = join(packageDir, "build", "Release", "classic_level.node");
const stampFile = join(packageDir, "build", "xchain-source.sha256");

const stamp = createHash("sha256")
  .update(readFileSync(join(packageDir, "binding.cc")))
  .update(`abi ${process.versions.modules} ${process.platform} ${process.arch}`)
  .digest("hex");
/** Whether the binary on disk loads (a build cut short can leave an empty file behind). */
function loads() {
  if (!existsSync(binary) || statSync(binary).size === 0) return false;
  const check = spawnSync(process.execPath, ["-e", `require(${JSON.stringify(binary)})`], {stdio: "ignore"});
  return check.status === 0;
}

if (existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp && loads()) {
  console.log("classic-level: the patched LevelDB binding is already built");
  process.exit(0);
}

// npm passes its bundled node-gyp to install scripts; by hand, take the one beside this npm.
const nodeGyp =
  process.env.npm_config_node_gyp ??
  join(dirname(process.execPath), "..", "lib", "node_modules", "npm", "node_modules", "node-gyp", "bin", "node-gyp.js");
// node-gyp would download Node's headers; the installed Node's own headers are the right ones, and
// this machine may have no internet (npm is usually configured with them as `nodedir`).
const prefix = join(dirname(process.execPath), "..");
const nodedir =
  process.env.npm_config_nodedir ?? (existsSync(join(prefix, "include", "node", "node.h")) ? prefix : undefined);
const args = [nodeGyp, "rebuild", `--jobs=${availableParallelism()}`, ...(nodedir ? [`--nodedir=${nodedir}`] : [])];
console.log("classic-level: building the patched LevelDB binding from source (about a minute)");
rmSync(stampFile, {force: true});
const started = Date.now();
const result = spawnSync(process.execPath, args, {
  cwd: packageDir,
  stdio: ["ignore", "ignore", "pipe"],
});
if (result.status !== 0) {
  process.stderr.write(result.stderr ?? "");
  console.error(
    `classic-level: building the LevelDB binding failed (${result.error?.message ?? `exit ${result.status}`}); ` +
      "it needs python3, make and a C++ compiler (Debian: apt-get install python3 make g++)",
  );
  process.exit(1);
}
if (!loads()) {
  console.error(`classic-level: the LevelDB binding built at ${binary} does not load`);
  process.exit(1);
}
writeFileSync(stampFile, stamp);
console.log(`classic-level: built in ${Math.round((Date.now() - started) / 1000)} s`);
