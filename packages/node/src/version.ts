/** The version of xchain (this package's), as `--version` and web3_clientVersion report it. */
import {createRequire} from "node:module";

/** The package version, e.g. "0.1.0". */
export const XCHAIN_VERSION: string = (createRequire(import.meta.url)("../package.json") as {version: string}).version;
