/** The shape of one configuration key, shared by the key tables (`keys/*`) and the schema that lists them. */
import type {ValueKind} from "./values.ts";

/** One key of node.config.toml. */
export interface ConfigKey {
  /** Dotted path, the same in TOML (`[rpc.http] port`) and as a flag (`--rpc.http.port`). */
  key: string;
  kind: ValueKind;
  description: string;
  /** The flag, when it is not `--<key>`. */
  flag?: string;
  /** The flag's placeholder in `--help`. */
  placeholder?: string;
  /** May be left unset (no default value). */
  optional?: boolean;
}
