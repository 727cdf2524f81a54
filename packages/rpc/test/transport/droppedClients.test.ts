/** The dropped-client summary: a debug line per client, at most one warn line per interval. */
import type {Logger} from "@xchain/utils";
import {afterEach, beforeEach, describe, expect, it, vi} from "vitest";
import {DroppedClients} from "../../src/transport/droppedClients.ts";

function recordingLogger() {
  const logger = {debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn(), child: () => logger};
  return logger;
}

describe("DroppedClients", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("logs each drop at debug and sums them up in one warn line per interval", () => {
    const logger = recordingLogger();
    const dropped = new DroppedClients(logger as Logger, 60_000);
    for (let i = 0; i < 500; i++) dropped.record("http body timeout", {client: "10.0.0.1"});
    dropped.record("ws client too slow");
    expect(logger.debug).toHaveBeenCalledTimes(501);
    expect(logger.debug).toHaveBeenLastCalledWith({reason: "ws client too slow"}, "rpc client dropped");
    expect(logger.warn).not.toHaveBeenCalled();

    vi.advanceTimersByTime(59_999);
    expect(logger.warn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith(
      {dropped: 501, reasons: {"http body timeout": 500, "ws client too slow": 1}},
      "dropped 501 rpc clients in the last 60 s (http body timeout: 500, ws client too slow: 1)",
    );
    expect(logger.error).not.toHaveBeenCalled();
  });

  it("writes nothing while no client is dropped, and starts a new interval with the next drop", () => {
    const logger = recordingLogger();
    const dropped = new DroppedClients(logger as Logger, 1_000);
    dropped.record("ws connection error");
    vi.advanceTimersByTime(1_000);
    vi.advanceTimersByTime(10_000);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    dropped.record("http client left");
    dropped.record("http client left");
    vi.advanceTimersByTime(1_000);
    expect(logger.warn).toHaveBeenCalledTimes(2);
    expect(logger.warn).toHaveBeenLastCalledWith(
      {dropped: 2, reasons: {"http client left": 2}},
      "dropped 2 rpc clients in the last 1 s (http client left: 2)",
    );
  });

  it("flushes what is pending when asked (the server closes) and then stays quiet", () => {
    const logger = recordingLogger();
    const dropped = new DroppedClients(logger as Logger);
    dropped.record("ws client too slow");
    dropped.flush();
    expect(logger.warn).toHaveBeenCalledWith(
      {dropped: 1, reasons: {"ws client too slow": 1}},
      "dropped 1 rpc client in the last 60 s (ws client too slow: 1)",
    );
    vi.advanceTimersByTime(120_000);
    dropped.flush();
    expect(logger.warn).toHaveBeenCalledTimes(1);
  });
});
