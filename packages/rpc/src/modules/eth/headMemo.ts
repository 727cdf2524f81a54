/**
 * Answers of cheap state reads at the head, formatted once per head state root (docs/rpc.md §4.3):
 * a balance, nonce or storage word asked for again at `latest` is the same string until the head
 * moves, so it is kept by method and raw parameters and dropped when the head's state root changes.
 * The root is the head's effective one: a dev control's edit of the head's state changes it too.
 * Only successful answers are kept, and only for reads at `latest` (named or by default).
 */
import type {RequestContext, RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";

/** Most answers kept for one state root; past it the memo starts over. */
const MAX_ENTRIES = 10_000;

/** The memo of one head state root. */
export class HeadMemo {
  private root: Uint8Array | undefined;
  /** One table per memoized method, so that a key is a parameter string as parsed (its hash cached), not a concatenation. */
  private readonly tables: Map<string, unknown>[] = [];

  constructor(private readonly chain: Pick<ModuleDeps["chain"], "head" | "stateRootAfter">) {}

  /** The head's state root now (the same object while it lasts); a new one empties the memo. */
  currentRoot(): Uint8Array {
    const root = this.chain.stateRootAfter(this.chain.head().header);
    if (root !== this.root) {
      this.root = root;
      for (const table of this.tables) table.clear();
    }
    return root;
  }

  /** A new table, emptied with the others when the head's state root changes. */
  table(): Map<string, unknown> {
    const table = new Map<string, unknown>();
    this.tables.push(table);
    return table;
  }

  /** Keeps `answer` in `table` if the head still has `root`. */
  set(table: Map<string, unknown>, key: string, answer: unknown, root: Uint8Array): void {
    if (this.currentRoot() !== root) return;
    if (table.size >= MAX_ENTRIES) table.clear();
    table.set(key, answer);
  }
}

/**
 * `method` answered from `memo` when its parameter named "block" is "latest" (or omitted, when optional) and the
 * parameters before it are strings: the key is those strings.
 */
export function memoAtHead(memo: HeadMemo, method: RpcMethod): RpcMethod {
  const blockIndex = method.params?.findIndex((p) => p.name === "block") ?? -1;
  if (blockIndex < 1) return method;
  // A required block left out is an error the method itself answers.
  const omittedIsLatest = method.params?.[blockIndex]?.required === false;
  const answers = memo.table();
  /** The key of `raw` when its answer may be memoized: the strings before the block, at latest. */
  const keyOf = (raw: readonly unknown[]): string | undefined => {
    const block = raw[blockIndex];
    const atLatest = block === undefined ? omittedIsLatest : block === "latest";
    if (raw.length > blockIndex + 1 || !atLatest) return undefined;
    let key = raw[0];
    for (let i = 1; i < blockIndex && typeof key === "string"; i++) {
      const value = raw[i];
      key = typeof value === "string" ? `${key}\n${value}` : undefined;
    }
    return typeof key === "string" ? key : undefined;
  };
  const answerAndKeep = async (raw: readonly unknown[], context: RequestContext, key: string | undefined) => {
    if (key === undefined) return method.invoke(raw, context);
    const root = memo.currentRoot();
    const answer = await method.invoke(raw, context);
    memo.set(answers, key, answer, root);
    return answer;
  };
  return {
    params: method.params,
    // Not async: a known answer is returned as it is (the fast path, jsonrpc/pending.ts).
    invoke(raw, context) {
      const key = keyOf(raw);
      if (key !== undefined) {
        memo.currentRoot();
        const known = answers.get(key);
        if (known !== undefined) return known;
      }
      return answerAndKeep(raw, context, key);
    },
  };
}
