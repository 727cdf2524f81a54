// HAProxy (Debian's `haproxy`) as a child process, running docs/haproxy.cfg with its addresses
// given in the environment, and its statistics read back as CSV.
import {type ChildProcess, execFileSync, spawn} from "node:child_process";
import {existsSync} from "node:fs";
import {join} from "node:path";

/** The configuration the operator's documentation gives (docs/operations.md §10). */
export const HAPROXY_CONFIG = join(import.meta.dirname, "..", "..", "..", "docs", "haproxy.cfg");

/** The haproxy binary: on PATH or where Debian installs it; undefined when it is not installed. */
export function haproxyBinary(): string | undefined {
  for (const candidate of ["/usr/sbin/haproxy", "/usr/local/sbin/haproxy"]) if (existsSync(candidate)) return candidate;
  try {
    return execFileSync("sh", ["-c", "command -v haproxy"], {encoding: "utf8"}).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** One row of HAProxy's statistics: a frontend, a backend or one of its servers. */
export interface StatsRow {
  pxname: string;
  svname: string;
  /** UP, DOWN, "UP 1/2" (going down), "DOWN 1/2" (coming up), MAINT, no check. */
  status: string;
  /** Sessions open now. */
  scur: number;
  /** Requests retried on the same server, and redispatched to another. */
  wretr: number;
  wredis: number;
  /** Responses by class. */
  hrsp_5xx: number;
}

/** A running HAProxy. */
export interface RunningHaproxy {
  /** What it logged (stdout: one line per request, without the path; stderr: its notices). */
  output(): string;
  stats(): Promise<StatsRow[]>;
  /** The state of `server` in `backend`. */
  serverStatus(backend: string, server: string): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts `haproxy -db -f docs/haproxy.cfg` with `env` (its `XCHAIN_*` addresses), checked first
 * with `-c`, and waits until its statistics page answers.
 */
export async function startHaproxy(binary: string, env: Record<string, string>): Promise<RunningHaproxy> {
  const environment = {...process.env, ...env};
  execFileSync(binary, ["-c", "-q", "-f", HAPROXY_CONFIG], {env: environment, stdio: "pipe"});
  const child: ChildProcess = spawn(binary, ["-db", "-f", HAPROXY_CONFIG], {
    env: environment,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const append = (d: Buffer) => {
    output += d.toString();
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const statsUrl = `http://${env.XCHAIN_LB_STATS}/stats;csv`;
  const stats = async (): Promise<StatsRow[]> => parseStats(await (await fetch(statsUrl)).text());
  for (;;) {
    if (gone) throw new Error(`haproxy exited before it served:\n${output}`);
    const ready = await stats().then(
      () => true,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    output: () => output,
    stats,
    serverStatus: async (backend, server) => {
      const row = (await stats()).find((r) => r.pxname === backend && r.svname === server);
      if (!row) throw new Error(`no server ${backend}/${server} in haproxy's statistics`);
      return row.status;
    },
    stop: () => {
      if (!gone) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** HAProxy's `;csv` statistics: a header line `# pxname,svname,...`, then one line per row. */
function parseStats(csv: string): StatsRow[] {
  const [header, ...lines] = csv.trim().split("\n");
  if (!header?.startsWith("# ")) throw new Error(`not haproxy's CSV statistics: ${csv.slice(0, 80)}`);
  const names = header.slice(2).split(",");
  return lines.map((line) => {
    const cells = line.split(",");
    const field = (name: string) => cells[names.indexOf(name)] ?? "";
    return {
      pxname: field("pxname"),
      svname: field("svname"),
      status: field("status"),
      scur: Number(field("scur")),
      wretr: Number(field("wretr")),
      wredis: Number(field("wredis")),
      hrsp_5xx: Number(field("hrsp_5xx")),
    };
  });
}
