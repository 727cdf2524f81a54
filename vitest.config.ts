import {fileURLToPath} from "node:url";
import {defineConfig} from "vitest/config";

const packagesDir = fileURLToPath(new URL("./packages/", import.meta.url));

// Two tiers (test/README.md). `unit` (`npm run test:unit`): each package's tests in the test's
// process alone, with no server, socket, thread or child process (test/unitGuard.ts refuses them),
// from the TypeScript sources, with no build needed. `e2e` (`npm run test:e2e`, after `tsc -b`): the
// projects `e2e` and `e2e-packages` below, whatever binds a port (a free one, never a default) or
// starts a thread or a process. `npm test` runs both tiers.
export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources of sibling packages, not their build output.
    alias: [
      {find: /^@xchain\/([a-z0-9-]+)$/, replacement: `${packagesDir}$1/src/index.ts`},
      // A package's light entry points (package.json "exports", e.g. `@xchain/p2p/options`) are files of its src/.
      {find: /^@xchain\/([a-z0-9-]+)\/([a-zA-Z0-9-]+)$/, replacement: `${packagesDir}$1/src/$2.ts`},
    ],
  },
  test: {
    setupFiles: ["./test/setup.ts"],
    // Limits that only bound a hang, generous enough for a loaded machine (`stress -c 2` beside the
    // run stretches a 10 s test past 30 s): a passing test takes no longer for them (test/README.md).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    expect: {poll: {timeout: 20_000}},
    // CI also writes a JSON report, from which .ci/run prints its "N passed, M failed" line.
    reporters: process.env.CI ? ["default", "json"] : ["default"],
    outputFile: {json: ".vitest-results.json"},
    projects: [
      {
        extends: true,
        // Unit files share their workers' module graph (no per-file re-import of ethereumjs and
        // libp2p): about 55 s instead of 150 s on 2 cores. Files must not depend on module state.
        test: {
          name: "unit",
          include: ["packages/*/test/**/*.test.ts", "test/*.test.ts"],
          exclude: ["packages/*/test/e2e/**"],
          isolate: false,
          setupFiles: ["./test/unitGuard.ts"],
        },
      },
      // Real node processes (test/e2e), each file in a fresh module graph.
      {extends: true, test: {name: "e2e", include: ["test/e2e/**/*.test.ts"]}},
      // A package's tests that bind sockets, start threads or processes in the test's own process
      // (packages/*/test/e2e): servers on free ports, libp2p hosts, call workers. They share their
      // workers' module graph as the unit files do.
      {
        extends: true,
        test: {
          name: "e2e-packages",
          include: ["packages/*/test/e2e/**/*.test.ts"],
          isolate: false,
        },
      },
    ],
  },
});
