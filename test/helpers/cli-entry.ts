// Runs the CLI from source for tests (bin/vigil.js runs the same main() from dist/).
import { main } from "../../src/main.js";

// Exit explicitly: after a shutdown timeout, handles that would not close must not keep us alive.
process.exit(await main(process.argv.slice(2)));
