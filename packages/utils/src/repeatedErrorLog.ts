import type {Logger} from "./logger.ts";

/** Kinds of error remembered at most; past it the oldest is forgotten (and may be logged again sooner). */
const MAX_KINDS = 64;

/**
 * Logs a failure that may repeat many times a second (a mining task on a full disk) once per kind and
 * interval: the first of a kind at once, then at most once per `intervalMs` with the number of
 * repeats held back meanwhile. The kind is a `NodeError`'s code, else the error's message.
 */
export class RepeatedErrorLog {
  private readonly kinds = new Map<string, {loggedAt: number; heldBack: number}>();

  constructor(
    private readonly logger: Logger,
    private readonly message: string,
    private readonly intervalMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  report(err: unknown): void {
    const kind = kindOf(err);
    const now = this.now();
    const seen = this.kinds.get(kind);
    if (seen && now - seen.loggedAt < this.intervalMs) {
      seen.heldBack++;
      return;
    }
    const repeats = seen?.heldBack ?? 0;
    this.kinds.delete(kind);
    if (this.kinds.size >= MAX_KINDS) this.kinds.delete(this.kinds.keys().next().value as string);
    this.kinds.set(kind, {loggedAt: now, heldBack: 0});
    const suffix = repeats > 0 ? ` (and ${repeats} more time(s) since the last line)` : "";
    this.logger.error({err, repeats}, `${this.message}${suffix}`);
  }
}

function kindOf(err: unknown): string {
  const code = (err as {code?: unknown} | null)?.code;
  if (typeof code === "string") return code;
  return err instanceof Error ? err.message : String(err);
}
