/** `AnswerCache.clear`: what it drops, and answers computed across it not kept. */
import {describe, expect, it} from "vitest";
import {AnswerCache} from "../../src/caches/answerCache.ts";

const cache = () => new AnswerCache<string>({maxBytes: 1_000, sizeOf: (value, key) => value.length + key.length});

describe("AnswerCache.clear", () => {
  it("drops every answer", () => {
    const answers = cache();
    answers.set("a", "1");
    answers.clear();
    expect(answers.get("a")).toBeUndefined();
    expect(answers.stats().entries).toBe(0);
  });

  it("does not keep an answer whose computation began before it", () => {
    const answers = cache();
    const since = answers.currentGeneration();
    answers.clear();
    answers.set("late", "computed on the old state", since);
    expect(answers.get("late")).toBeUndefined();
    answers.set("fresh", "2", answers.currentGeneration());
    expect(answers.get("fresh")).toBe("2");
  });
});
