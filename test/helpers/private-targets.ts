// What the SSRF guard refuses and the setting it names, shared by the monitor API tests.

/** Loopback, IPv6 loopback, private, cloud metadata and a local name. */
export const PRIVATE_URLS = [
  "http://127.0.0.1/health",
  "http://[::1]/",
  "http://10.0.0.1/",
  "http://169.254.169.254/latest/meta-data",
  "http://localhost/health",
];
export const ALLOW_SETTING = /VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS=true/;
