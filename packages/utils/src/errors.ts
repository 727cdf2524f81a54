/**
 * Base class of every typed error in xchain: `type` carries a string `code` plus the metadata
 * of that code, so callers branch on `err.type.code` (to score a peer, or to map a wire error)
 * instead of parsing messages.
 */
export class NodeError<T extends {code: string}> extends Error {
  readonly type: T;

  constructor(type: T, message?: string) {
    super(message ?? type.code);
    this.type = type;
    this.name = new.target.name;
  }

  /** The error code, the same as `type.code`. */
  get code(): T["code"] {
    return this.type.code;
  }
}
