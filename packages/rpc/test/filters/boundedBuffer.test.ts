import {describe, expect, it} from "vitest";
import {BoundedBuffer} from "../../src/filters/boundedBuffer.ts";

describe("BoundedBuffer", () => {
  it("gives back what was pushed, oldest first, and empties", () => {
    const buffer = new BoundedBuffer<number>(3);
    buffer.push(1);
    buffer.push(2);
    expect(buffer.take()).toEqual({entries: [1, 2], dropped: 0});
    expect(buffer.take()).toEqual({entries: [], dropped: 0});
  });

  it("drops the oldest beyond its capacity and counts them until the next take", () => {
    const buffer = new BoundedBuffer<number>(3);
    for (let i = 1; i <= 8; i++) buffer.push(i);
    expect(buffer.take()).toEqual({entries: [6, 7, 8], dropped: 5});
    buffer.push(9);
    expect(buffer.take()).toEqual({entries: [9], dropped: 0});
  });
});
