/** The URL with any `user:password@` credentials masked, for results, logs and notifications. */
export function redactUrl(url: string): string {
  // Only what sits between the scheme and the first @ before the path is touched.
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, "$1***@");
}
