// Moves everything of a stopped node's database from the write-ahead log into table files (LevelDB's
// compaction of the whole key range), as a node that has run for long holds it: the corruption tests
// then damage table files. Usage: node compactDatabase.mjs DIR/db
import {ClassicLevel} from "classic-level";

const db = new ClassicLevel(process.argv[2], {keyEncoding: "view", valueEncoding: "view"});
await db.open({paranoidChecks: true, createIfMissing: false});
await db.compactRange(Uint8Array.of(0x00), Uint8Array.of(0xff));
await db.close();
