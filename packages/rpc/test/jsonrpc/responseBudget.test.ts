/** Response bytes counted per body and across all bodies (docs/rpc.md §8). */
import {describe, expect, it} from "vitest";
import {ResponseBudget, ResponseMemory} from "../../src/jsonrpc/responseBudget.ts";

describe("ResponseBudget", () => {
  it("counts reservations and refuses the one that passes the body's cap with -32011", () => {
    const memory = new ResponseMemory(1_000);
    const budget = new ResponseBudget(100, memory);
    expect(budget.tryReserve(60)).toBe(true);
    expect(budget.used).toBe(60);
    expect(budget.tryReserve(41)).toBe(false);
    expect(budget.exceeded?.toObject()).toEqual({code: -32011, message: "Response too large: more than 100 bytes"});
    // Refused once, refused for good; nothing more was taken from the shared memory.
    expect(budget.tryReserve(1)).toBe(false);
    expect(memory.reserved).toBe(60);
    budget.release();
    expect(memory.reserved).toBe(0);
  });

  it("refuses with -32005 naming the setting when the shared memory is used up, and throws from reserve", () => {
    const memory = new ResponseMemory(100);
    const first = new ResponseBudget(1_000, memory);
    const second = new ResponseBudget(1_000, memory);
    first.reserve(80);
    expect(() => second.reserve(30)).toThrow(
      "responses being built use all of rpc.maxInFlightResponseBytes (100 bytes); retry later",
    );
    expect(second.exceeded?.code).toBe(-32005);
    expect(memory.reserved).toBe(80);
    first.release();
    // A new body gets the memory back.
    expect(new ResponseBudget(1_000, memory).tryReserve(100)).toBe(true);
  });
});
