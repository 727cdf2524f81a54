/**
 * The database of a stopped node, as the `xchain db` tools open it (docs/operations.md §5): a data
 * directory a running node holds is refused with what to do, and so is one without a database.
 */
import {type Chainspec, networkNames} from "@xchain/chainspec";
import {DatabaseError, DatabaseErrorCode, LevelStore} from "@xchain/db";
import {DbToolError, DbToolErrorCode} from "../errors.ts";
import {databaseDir} from "./openDatabase.ts";

/** The refusal of a data directory whose database a running node holds (its LevelDB lock). */
export function dataDirInUse(dataDir: string, command: string): DbToolError {
  return new DbToolError(
    {code: DbToolErrorCode.DATADIR_IN_USE, dataDir},
    `the data directory ${dataDir} is in use by a running xchain node (its database is locked): stop that node ` +
      `(SIGTERM; it closes its database), then run xchain db ${command} again`,
  );
}

/** Opens `<dataDir>/db` of a stopped node without creating it; `command` names the tool in the refusals. */
export async function openStoppedDatabase(dataDir: string, command: string): Promise<LevelStore> {
  try {
    return await LevelStore.open(databaseDir(dataDir), {create: false});
  } catch (e) {
    if (!(e instanceof DatabaseError)) throw e;
    if (e.code === DatabaseErrorCode.LOCKED) throw dataDirInUse(dataDir, command);
    if (e.code === DatabaseErrorCode.MISSING) {
      throw new DbToolError(
        {code: DbToolErrorCode.NO_DATABASE, dataDir},
        `there is no database in ${databaseDir(dataDir)}: check --datadir (the default is ~/.xchain/<network>, ` +
          `one of ${networkNames.join(", ")})`,
      );
    }
    throw e;
  }
}

/** Refuses a database whose chain id is not `chainspec`'s (made under another --network). */
export function checkNetwork(dataDir: string, chainspec: Chainspec, storedChainId: number | undefined): void {
  const expected = chainspec.params.chainId;
  if (storedChainId === expected) return;
  throw new DbToolError(
    {code: DbToolErrorCode.OTHER_NETWORK, dataDir, expected, stored: storedChainId},
    storedChainId === undefined
      ? `the database in ${dataDir} holds no chain`
      : `the database in ${dataDir} holds the chain of chain id ${storedChainId}, not ${chainspec.params.name}'s ` +
          `(${expected}): pass the --network (and --genesis-file) it was made with`,
  );
}
