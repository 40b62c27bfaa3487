import { percentileOf as percentile, round as roundTo } from "../harness/stats.js";

// The bench's settings (BENCH_ALERTS_* variables), its figures' rounding, and the rules' queries.

export const SPANS = Number(process.env.BENCH_ALERTS_SPANS ?? 1_000_000);
export const RULES = Number(process.env.BENCH_ALERTS_RULES ?? 1000);
export const MINUTES = Number(process.env.BENCH_ALERTS_MINUTES ?? 2);
export const INGEST_RATE = Number(process.env.BENCH_ALERTS_INGEST_RATE ?? 10);
export const BATCH = Number(process.env.BENCH_ALERTS_BATCH ?? 100);
export const TARGET_LAG_P99_S = 5;
/** BENCH_ALERTS_BURST=0 skips the burst beside bare. */
export const BURST = process.env.BENCH_ALERTS_BURST !== "0";

/** Rounded to one decimal unless told otherwise, as this bench reports. */
export const round = (n: number, digits = 1) => roundTo(n, digits);
export const stats = (values: readonly number[]) => ({
  n: values.length,
  p50: round(percentile(values, 50), 2),
  p99: round(percentile(values, 99), 2),
  max: round(Math.max(...values), 2),
});

export const SERVICES = [
  "gateway",
  "orders",
  "users",
  "payments",
  "assistant",
  "web",
  "inventory",
  "search",
];
export const OPERATIONS = [
  "GET /api/orders",
  "POST /api/checkout",
  "SELECT orders",
  "GET /api/users/{id}",
];

/** Five kinds of alert query; `i` varies thresholds and filters so the 1,000 rules differ. */
export function ruleQuery(i: number): { query: string; threshold: number } {
  switch (i % 5) {
    case 0:
      return {
        query: `SELECT service_name AS service, countIf(status = 'error') / count() AS value FROM traces WHERE timestamp > now() - INTERVAL 5 MINUTE GROUP BY service`,
        threshold: 0.015 + (i % 10) / 1000,
      };
    case 1:
      return {
        query: `SELECT quantile(0.95)(duration_ms) AS value FROM traces WHERE timestamp > now() - INTERVAL 5 MINUTE AND operation_name = '${OPERATIONS[i % OPERATIONS.length]}'`,
        threshold: 300 + (i % 200),
      };
    case 2:
      return {
        query: `SELECT http_route AS route, countIf(http_status_code >= 500) AS value FROM traces WHERE timestamp > now() - INTERVAL 15 MINUTE AND http_route != '' GROUP BY route`,
        threshold: 50 + (i % 100),
      };
    case 3:
      return {
        query: `SELECT service_name AS service, max(duration_ms) AS value FROM traces WHERE timestamp > now() - INTERVAL 1 HOUR AND service_name = '${SERVICES[i % SERVICES.length]}' GROUP BY service`,
        threshold: 4000 + (i % 1000),
      };
    default:
      return {
        query: `SELECT count() AS value FROM traces WHERE timestamp > now() - INTERVAL 1 MINUTE`,
        threshold: 1000 + i,
      };
  }
}
