/**
 * The trace list's query string as last shown, so that "All traces" on a waterfall goes back to
 * the same filters and page (the waterfall's own URL does not carry them).
 */
export const listReturn = { search: "" };
