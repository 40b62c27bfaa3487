// `vigil serve` for this bench: main() from dist/ when started with production-code.mjs, as
// bin/vigil.js runs it.
import { main } from "../../src/main.js";

process.exit(await main(process.argv.slice(2)));
