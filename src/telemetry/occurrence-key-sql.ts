// The SQL twins of ingest/derive/occurrence-key.ts (occurrenceKey, sessionErrorKey): the store
// owns them, so its recounts and the readers build keys from one place (docs/ingestion.md,
// "One occurrence").

/**
 * occurrenceKey (ingest/derive/occurrence-key.ts) in SQL, over error_occurrences' columns (`prefix`: a table alias and a dot):
 * `has`, the condition of a row having a key (a trace and a span); `columns`, the key's columns
 * to group by. Readers and recounts build keys from these, so they agree with ingestion.
 */
export function occurrenceKeySql(prefix = ""): { has: string; columns: string } {
  return {
    has: `${prefix}trace_id != '' AND ${prefix}span_id != ''`,
    columns: ["fingerprint", "trace_id", "span_id", "message"].map((c) => prefix + c).join(", "),
  };
}

/**
 * sessionErrorKey (ingest/derive/occurrence-key.ts) in SQL, from error_occurrences' columns (`prefix`: a table alias and a dot) of
 * a row with a key (occurrenceKeySql().has): `<trace><span>:<16 hex of the SHA-256 of fingerprint
 * NUL message>`, the key ingestion writes for the same occurrence.
 */
export const sessionErrorKeySql = (prefix = ""): string =>
  `concat(${prefix}trace_id, ${prefix}span_id, ':', lower(hex(substring(SHA256(concat(${prefix}fingerprint, '\\0', ${prefix}message)), 1, 8))))`;
