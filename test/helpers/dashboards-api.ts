import { expect } from "vitest";
import type { CreateDashboardInput } from "../../src/contracts/dashboards.js";

// What the dashboards API tests share: reading answers and problems, and a small dashboard.

export interface Problem {
  status: number;
  code: string;
  detail: string;
  errors?: { field: string; message: string }[];
}
export interface Page<T> {
  data: T[];
  pagination: { total: number; hasMore: boolean };
}

export const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;

/** The body of an answer that must have this status. */
export async function ok<T>(response: Response, status = 200): Promise<T> {
  const body = await json<T>(response);
  expect(response.status, JSON.stringify(body).slice(0, 500)).toBe(status);
  return body;
}

/** The problem document of an answer that must have this status. */
export async function refused(response: Response, status: number): Promise<Problem> {
  const problem = await json<Problem>(response);
  expect(response.status, JSON.stringify(problem).slice(0, 500)).toBe(status);
  expect(response.headers.get("content-type")).toContain("application/problem+json");
  return problem;
}

export const fields = (problem: Problem) => (problem.errors ?? []).map((e) => e.field);

/** Two panels (one a query, one text) and a variable: what a first save looks like. */
export const checkoutBody = (title = "Checkout"): CreateDashboardInput => ({
  title,
  description: "The checkout service",
  tags: ["team:payments", "Prod"],
  variables: [{ type: "custom", name: "service", values: ["checkout", "cart"] }],
  panels: [
    {
      title: "Requests",
      type: "timeseries",
      gridPos: { x: 0, y: 0, w: 6, h: 8 },
      queries: [
        {
          tql: "SELECT $__timeInterval(timestamp) AS t, count() AS n FROM traces WHERE $__timeFilter(timestamp) AND service_name = {service:String} GROUP BY t ORDER BY t",
        },
      ],
      unit: "reqps",
    },
    {
      id: "notes",
      title: "Notes",
      type: "text",
      gridPos: { x: 6, y: 0, w: 6, h: 4 },
      content: "# On call\nPage **payments**.",
    },
  ],
});
