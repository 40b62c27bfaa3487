import { writeFileSync } from "node:fs";
import { renderTqlFunctionsDoc } from "../src/tql/functions-doc.js";

writeFileSync(new URL("../docs/tql-functions.md", import.meta.url), renderTqlFunctionsDoc());
process.stdout.write("wrote docs/tql-functions.md\n");
