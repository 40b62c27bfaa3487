/** The list's filters as URL parameters, which are also the API's names (GET /v1/sessions). */
export const FILTER_KEYS = ["user_id", "browser", "os", "device", "country", "has_errors"] as const;
