// A loopback port that is free now, for programs that cannot bind port 0 themselves and report
// the port (HAProxy), or for a port nothing listens on.
import {createServer} from "node:net";

/** A loopback TCP port nothing listens on: bound on port 0, then closed. */
export async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const {port} = server.address() as {port: number};
  await new Promise((resolve) => server.close(resolve));
  return port;
}
