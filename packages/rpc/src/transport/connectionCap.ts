/**
 * The per-address connection cap on a listener (`IpLimits`, docs/gateway.md "Per-IP limits"): a TCP
 * connection from an address already at its cap is closed as soon as it is accepted, before any
 * byte is read (before the TLS handshake on an HTTPS listener).
 */
import type {Server} from "node:net";
import type {IpLimits} from "../limits/ipLimits.ts";
import type {DroppedClients} from "./droppedClients.ts";

/** Counts `server`'s connections against `limits`, closing those over an address's cap. */
export function capConnections(server: Server, limits: IpLimits, dropped: DroppedClients): void {
  server.on("connection", (socket) => {
    const address = socket.remoteAddress ?? "";
    if (!limits.openConnection(address)) {
      // Counted for the summary only: a flood of connections writes no line each.
      dropped.count("connection cap per address");
      socket.destroy();
      return;
    }
    socket.once("close", () => limits.closeConnection(address));
  });
}
