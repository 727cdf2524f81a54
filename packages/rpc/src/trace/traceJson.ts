/** The JSON array of serialized trace entries, each entry's bytes counted before it is kept (docs/rpc.md §8). */
import {RawJson} from "../jsonrpc/rawJson.ts";

const OPEN = Buffer.from("[");
const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]");

/** Builds a JSON array of trace entries one at a time. */
export class TraceJsonWriter {
  private readonly chunks: Buffer[] = [OPEN];
  private entries = 0;

  /** `reserve` counts bytes and throws to refuse them (a request's `ResponseBudget.reserve`). */
  constructor(private readonly reserve: (bytes: number) => void) {}

  /** Entries added so far. */
  get count(): number {
    return this.entries;
  }

  /** Appends one entry's JSON; throws what `reserve` throws, with nothing appended. */
  add(entry: Buffer): void {
    // One byte more for the separator.
    this.reserve(entry.length + 1);
    if (this.entries > 0) this.chunks.push(COMMA);
    this.chunks.push(entry);
    this.entries++;
  }

  /** The array built so far. */
  finish(): RawJson {
    return new RawJson(Buffer.concat([...this.chunks, CLOSE]));
  }
}
