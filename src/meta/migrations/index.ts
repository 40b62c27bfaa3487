import type { Migration, MigrationProvider } from "kysely";
import * as initial from "./0001-initial.js";

/** Every migration, in order; add one entry per new file. Names are permanent once shipped. */
const MIGRATIONS: Record<string, Migration> = {
  "0001-initial": initial,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
