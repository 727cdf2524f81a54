import {fileURLToPath} from "node:url";
import {defineConfig} from "vitest/config";

const packagesDir = fileURLToPath(new URL("./packages/", import.meta.url));

// Two tiers: `unit` runs each package's tests in-process (`npm run test:unit`); `e2e` starts real
// node processes on loopback (`npm run test:e2e`). `npm test` runs both.
export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources of sibling packages, not their build output.
    alias: [{find: /^@xchain\/([a-z0-9-]+)$/, replacement: `${packagesDir}$1/src/index.ts`}],
  },
  test: {
    setupFiles: ["./test/setup.ts"],
    testTimeout: 30_000,
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
      {extends: true, test: {name: "e2e", include: ["test/e2e/**/*.test.ts"]}},
    ],
  },
});
