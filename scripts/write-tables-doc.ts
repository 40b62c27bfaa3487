import { writeFileSync } from "node:fs";
import { renderTqlTablesDoc } from "../src/telemetry/tables-doc.js";

writeFileSync(new URL("../docs/tql-tables.md", import.meta.url), renderTqlTablesDoc());
process.stdout.write("wrote docs/tql-tables.md\n");
