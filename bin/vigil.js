#!/usr/bin/env node
// The installed entry point: runs the compiled CLI (built by `npm run build`, which `npm ci` runs via `prepare`).
import { main } from "../dist/main.js";

// Exit explicitly: after a shutdown timeout, handles that would not close must not keep us alive.
process.exit(await main(process.argv.slice(2)));
