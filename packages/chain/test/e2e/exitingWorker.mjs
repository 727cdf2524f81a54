// A sender recovery worker that exits (code 7) on its first batch: what recoverAhead.test.ts makes a crash of.
import {parentPort} from "node:worker_threads";

parentPort.on("message", () => process.exit(7));
