/** The collector's turns in the chain's queue (docs/operations.md §12): what queues during a turn runs before the next. */
import {SerialQueue} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {QueueSlice} from "../../src/prune/queueSlice.ts";

function queued() {
  const queue = new SerialQueue();
  const exclusive = <T>(task: () => Promise<T>) => queue.run(task);
  const ran: string[] = [];
  const later = (name: string) => queue.run(async () => void ran.push(name));
  return {exclusive, ran, later};
}

describe("QueueSlice", () => {
  it("holds the queue from enter to leave, and lets what queued meanwhile run at a yield once its time is spent", async () => {
    const {exclusive, ran, later} = queued();
    const turns: number[] = [];
    const slice = new QueueSlice(exclusive, 0, (ms) => turns.push(ms));
    await slice.enter();
    const imported = later("import");
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual([]);
    await slice.yield();
    expect(ran).toEqual(["import"]);
    await imported;
    const next = later("next");
    slice.leave();
    slice.leave();
    await next;
    expect(ran).toEqual(["import", "next"]);
    expect(turns).toHaveLength(2);
  });

  it("keeps the queue at a yield while its time is not spent", async () => {
    const {exclusive, ran, later} = queued();
    const slice = new QueueSlice(exclusive, Number.POSITIVE_INFINITY, () => undefined);
    await slice.enter();
    const imported = later("import");
    await slice.yield();
    await new Promise((resolve) => setImmediate(resolve));
    expect(slice.spent).toBe(false);
    expect(ran).toEqual([]);
    slice.leave();
    await imported;
    expect(ran).toEqual(["import"]);
    await expect(slice.enter().then(() => slice.enter())).rejects.toThrow("entered twice");
  });
});
