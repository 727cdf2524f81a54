// Opening a chain in pruned mode (state.mode = "pruned", docs/operations.md), with a view of its
// collector for the benchmark: `running()`, `completed()` (collections finished so far), `stop()`.
import {defaultStateOptions} from "@xchain/state";

export async function openPrunedChain(_modules, _retain) {
  if (!("mode" in defaultStateOptions)) {
    throw new Error(
      "pruned mode is not in this build: state.mode (issue 27 item 1, online pruning) is not merged yet; run --mode archive",
    );
  }
  throw new Error("pruned mode: the benchmark does not open the collector yet");
}
