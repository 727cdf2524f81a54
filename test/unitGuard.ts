/**
 * The unit tier's rule (test/README.md): a unit test runs in its worker's process alone, with no
 * server, socket, thread or child process. Binding or dialling a socket, starting a worker thread or
 * spawning a process throws here, naming the rule; such a test belongs to the e2e tier
 * (`packages/<pkg>/test/e2e/` or `test/e2e/`).
 */
import {createRequire, syncBuiltinESMExports} from "node:module";

const require = createRequire(import.meta.url);

function refuse(what: string): never {
  throw new Error(
    `${what} in a unit test: the unit tier runs without servers, sockets, threads or child processes; ` +
      "move the test to packages/<pkg>/test/e2e/ (test/README.md)",
  );
}

const net: typeof import("node:net") = require("node:net");
net.Server.prototype.listen = () => refuse("net.Server.listen");
net.Socket.prototype.connect = () => refuse("net.Socket.connect");

const dgram: typeof import("node:dgram") = require("node:dgram");
dgram.Socket.prototype.bind = () => refuse("dgram.Socket.bind");

const workerThreads: typeof import("node:worker_threads") = require("node:worker_threads");
workerThreads.Worker = class {
  constructor() {
    refuse("new Worker");
  }
} as unknown as typeof workerThreads.Worker;

const childProcess: Record<string, unknown> = require("node:child_process");
for (const name of ["spawn", "spawnSync", "fork", "exec", "execSync", "execFile", "execFileSync"]) {
  childProcess[name] = () => refuse(`child_process.${name}`);
}

// The ESM views of the built-in modules (`import {Worker} from "node:worker_threads"`) follow.
syncBuiltinESMExports();
