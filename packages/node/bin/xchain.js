#!/usr/bin/env node
// Entry point of the `xchain` command. The program is the start bundle when `npm run build` made one
// and it matches dist/ (docs/performance.md §13), else dist/ (built by `npm ci` via `prepare`).
import module from "node:module";
import {fileURLToPath, pathToFileURL} from "node:url";
import {freshBundle} from "../dist/cli/bundleEntry.js";

// V8's code cache on disk (Node >= 22.1; absent on Node 20, where this does nothing).
module.enableCompileCache?.();
const bundle = freshBundle(fileURLToPath(new URL("..", import.meta.url)));
const {runCli} = await import(bundle ? pathToFileURL(bundle).href : "../dist/cli/program.js");

process.exitCode = await runCli(process.argv);
