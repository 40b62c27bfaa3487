// `vigil serve` from the sources for this bench (bin/vigil.js runs the same main() from dist/).
import { main } from "../../src/main.js";

process.exit(await main(process.argv.slice(2)));
