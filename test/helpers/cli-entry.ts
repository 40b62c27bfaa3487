// Runs the CLI from source for tests (bin/vigil.js runs the same main() from dist/).
import { main } from "../../src/main.js";

process.exitCode = await main(process.argv.slice(2));
