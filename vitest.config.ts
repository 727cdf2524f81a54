import {fileURLToPath} from "node:url";
import {defineConfig} from "vitest/config";

const packagesDir = fileURLToPath(new URL("./packages/", import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources of sibling packages, not their build output.
    alias: [{find: /^@xchain\/([a-z0-9-]+)$/, replacement: `${packagesDir}$1/src/index.ts`}],
  },
  test: {
    setupFiles: ["./test/setup.ts"],
    include: ["packages/*/test/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    // CI also writes a JSON report, from which .ci/run prints its "N passed, M failed" line.
    reporters: process.env.CI ? ["default", "json"] : ["default"],
    outputFile: {json: ".vitest-results.json"},
  },
});
