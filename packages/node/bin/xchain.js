#!/usr/bin/env node
// Entry point of the `xchain` command; the program lives in dist/ (built by `npm ci` via `prepare`).
import {runCli} from "../dist/cli/program.js";

process.exitCode = await runCli(process.argv);
