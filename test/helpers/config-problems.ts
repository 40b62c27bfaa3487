import { ConfigError } from "../../src/config/config-error.js";

/** The problems a ConfigError names, or a failure when `fn` throws none. */
export const problemsOf = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  throw new Error("expected a ConfigError");
};
