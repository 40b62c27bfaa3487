#!/usr/bin/env node
// The installed entry point: runs the compiled CLI (built by `npm run build`, which `npm ci` runs via `prepare`).
import { main } from "../dist/main.js";

process.exitCode = await main(process.argv.slice(2));
