// Errors a call worker reports cross to the main thread as the same typed errors, so that the wire
// answer is the one the main thread would give (damage -32000, docs/operations.md §6).
import {DatabaseError, DatabaseErrorCode} from "@xchain/db";
import {StateError, StateErrorCode} from "@xchain/state";
import {describe, expect, it} from "vitest";
import {fromPortableError, toPortableError} from "../../src/calls/messages.ts";

describe("errors from a call worker", () => {
  it("come back as the typed errors they were", () => {
    const damage = new DatabaseError(
      {code: DatabaseErrorCode.CORRUPTED, path: "/db", reason: "Corruption: block checksum mismatch"},
      "the database at /db is damaged: Corruption: block checksum mismatch",
    );
    const back = fromPortableError(structuredClone(toPortableError(damage)));
    expect(back).toBeInstanceOf(DatabaseError);
    expect((back as DatabaseError).code).toBe(DatabaseErrorCode.CORRUPTED);
    expect(back.message).toBe(damage.message);
    const missing = fromPortableError(toPortableError(new StateError({code: StateErrorCode.NODE_MISSING, key: "ab"})));
    expect(missing).toBeInstanceOf(StateError);
  });

  it("come back as plain errors when they are not a call's", () => {
    const back = fromPortableError(toPortableError(new Error("boom")));
    expect(back).not.toBeInstanceOf(DatabaseError);
    expect(back.message).toBe("call worker: boom");
  });
});
