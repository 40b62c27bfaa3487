/** Where a log or an error comes from: the browser (frontend) or a server (backend). */
export const SOURCES = ["frontend", "backend"] as const;
export type TelemetrySource = (typeof SOURCES)[number];
