/** Binding a transport's server to its address, and closing it with every connection. */
import type {Server} from "node:http";
import type {AddressInfo} from "node:net";

/** A listening server. */
export interface Listener {
  /** The bound port (the chosen one when 0 was asked). */
  readonly port: number;
  /** Stops accepting, closes every connection and resolves when the server is closed. */
  close(): Promise<void>;
}

/** Listens on `host:port`; rejects when the address cannot be bound. */
export function listen(server: Server, host: string, port: number, closeClients?: () => void): Promise<Listener> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            closeClients?.();
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
