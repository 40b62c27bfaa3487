import type { RunningService } from "../../src/cli/serve.js";
import { systemCtx } from "../../src/context.js";
import { createMonitor } from "../../src/monitors/monitors.js";
import { initialize } from "../../src/setup/initialize.js";
import { createComponent } from "../../src/status-pages/components.js";
import { createGroup } from "../../src/status-pages/groups.js";
import { createPage } from "../../src/status-pages/status-pages.js";
import { COMPONENTS, GROUPS, SLUG } from "./settings.js";

/** One org and project, then the page: groups, a monitor per group and per component, components. */
export async function seedPage(service: RunningService) {
  const { deps } = service;
  const domain = deps.domain;
  const meta = domain.meta;
  const setup = await initialize({
    ctx: systemCtx(domain),
    input: {
      email: "bench@example.com",
      password: "bench password 1",
    },
  });
  const apiKey = setup.apiKey ?? "";
  const system = { deps: domain, actor: { kind: "system" as const } };
  const setupStarted = performance.now();

  // 1. The page: groups, monitors, components.
  const pageView = await createPage({
    ctx: system,
    orgId: setup.orgId,
    input: {
      slug: SLUG,
      title: "Acme Cloud",
      description: "Live status of Acme Cloud's API, dashboard, data pipeline and regions.",
      logoUrl: "https://example.com/logo.png",
      links: [
        { label: "Support", url: "https://example.com/support" },
        { label: "Docs", url: "https://example.com/docs" },
      ],
      timezone: "Europe/Paris",
    },
  });
  const pageId = pageView.page.id;
  const pageRef = { ctx: system, orgId: setup.orgId, pageId };
  const groupIds: string[] = [];
  for (const name of GROUPS) groupIds.push((await createGroup({ ...pageRef, input: { name } })).id);

  const newMonitor = async (name: string, path: string) =>
    (
      await createMonitor({
        ctx: system,
        projectId: setup.projectId,
        input: {
          name,
          type: "api",
          frequency: "1m",
          steps: [{ url: `https://example.com${path}` }],
        },
      })
    ).id;
  const groupMonitors: string[] = [];
  for (const [g, name] of GROUPS.entries())
    groupMonitors.push(await newMonitor(`${name} health`, `/health/group-${g}`));
  const components: { id: string; name: string; monitors: string[] }[] = [];
  for (let i = 0; i < COMPONENTS; i++) {
    const g = i % GROUPS.length;
    const name = `${GROUPS[g]} service ${Math.floor(i / GROUPS.length) + 1}`;
    const own = await newMonitor(`${name} check`, `/health/${i}`);
    const monitors = i % 2 === 1 ? [own, groupMonitors[g] ?? own] : [own];
    const view = await createComponent({
      ...pageRef,
      input: {
        name,
        description: `The ${name.toLowerCase()} of Acme Cloud`,
        groupId: groupIds[g] ?? null,
        monitorIds: monitors,
      },
    });
    components.push({ id: view.id, name, monitors });
  }
  const monitorCount = GROUPS.length + COMPONENTS;

  return {
    domain,
    meta,
    setup,
    apiKey,
    system,
    setupStarted,
    pageId,
    pageRef,
    groupMonitors,
    components,
    monitorCount,
  };
}
export type SeededPage = Awaited<ReturnType<typeof seedPage>>;
