import {SessionTrieDB} from "../dist/sessionDb.js";
import {reachableEntries} from "../dist/reachable.js";
import * as sess from "../dist/session.js";
const orig = SessionTrieDB.prototype.takeWrites;
let walkMs = 0, takeMs = 0, pend = 0;
SessionTrieDB.prototype.takeWrites = function (root) {
  const t0 = performance.now();
  reachableEntries(root, (k) => this.pending.get(k) ?? this.orphans.get(k));
  const t1 = performance.now();
  if (this.pending.size > 20000) { process.stdout.write(`genesis walk ${(t1 - t0).toFixed(0)} ms\n`); return orig.call(this, root); }
  pend += this.pending.size;
  const r = orig.call(this, root);
  takeMs += performance.now() - t1; walkMs += t1 - t0;
  return r;
};
process.on("exit", () => process.stdout.write(`walk ${walkMs.toFixed(0)} ms, takeWrites ${takeMs.toFixed(0)} ms, pending ${pend}\n`));
await import("./state.mjs");
