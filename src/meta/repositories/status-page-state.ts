import type { Kysely } from "kysely";
import type { Severity } from "../../contracts/severity.js";
import type { ComponentState, PageState } from "../../contracts/status-pages.js";
import type { MetaSchema } from "../schema.js";

// What the status page state engine reads and writes: the states of components' sources and the
// components' and pages' computed states. The per-day history rows are status-page-days.ts.

/** A component as the state engine needs it. */
export interface ComponentStateRow {
  id: string;
  pageId: string;
  state: ComponentState;
  stateChangedAt: string;
}

/** An open incident a component counts, and whether one of its own sources opened it. */
export interface CountedIncidentRecord {
  severity: Severity;
  ownSource: boolean;
}

/** What the sources of a set of components say, keyed by component id. */
export interface SourceStates {
  monitors: Map<string, { id: string; active: boolean; inOutage: boolean }[]>;
  rules: Map<string, { id: string; firing: boolean; muted: boolean; mutedUntil: string | null }[]>;
  /**
   * The open incidents each component counts: linked to it by hand, or its sources' own when it
   * publishes them and the source counts now (an active monitor, a rule whose mute does not
   * hold), once each, `ownSource` when its source feeds it.
   */
  incidents: Map<string, CountedIncidentRecord[]>;
}

const push = <T>(map: Map<string, T[]>, key: string, value: T) => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};

export function createStatusPageStateRepository(db: Kysely<MetaSchema>) {
  /**
   * The components' sources of one kind that count at `now`, as (component, source) pairs: an
   * active monitor (a paused one says nothing), a rule whose mute does not hold.
   */
  const countingSources = (
    kind: "monitor" | "alert",
    componentIds: readonly string[],
    now: string,
  ) =>
    kind === "monitor"
      ? db
          .selectFrom("status_page_component_monitors as l")
          .innerJoin("monitors as s", "s.id", "l.monitor_id")
          .select(["l.component_id", "l.monitor_id as source_id"])
          .where("l.component_id", "in", componentIds)
          .where("s.status", "=", "active")
      : db
          .selectFrom("status_page_component_rules as l")
          .innerJoin("alert_rules as s", "s.id", "l.rule_id")
          .select(["l.component_id", "l.rule_id as source_id"])
          .where("l.component_id", "in", componentIds)
          .where((eb) =>
            eb.or([
              eb("s.muted", "=", 0),
              eb.and([eb("s.muted_until", "is not", null), eb("s.muted_until", "<=", now)]),
            ]),
          );

  /**
   * The open own incidents (`kind` is the incident's source) of the components' counting
   * sources, where the component publishes them.
   */
  const ownIncidents = (kind: "monitor" | "alert", componentIds: readonly string[], now: string) =>
    db
      .selectFrom(countingSources(kind, componentIds, now).as("l"))
      .innerJoin("status_page_components as c", "c.id", "l.component_id")
      .innerJoin("incidents as i", (join) =>
        join.onRef("i.source_id", "=", "l.source_id").on("i.source", "=", kind),
      )
      .select(["l.component_id", "i.id", "i.severity"])
      .where("c.publish_incidents", "=", 1)
      .where("i.status", "=", "active")
      .execute();

  return {
    /** The components fed by any of these monitors or rules (one indexed read per kind). */
    async componentsOfSources(sources: {
      monitorIds: readonly string[];
      ruleIds: readonly string[];
    }): Promise<string[]> {
      const ids = new Set<string>();
      if (sources.monitorIds.length > 0)
        for (const r of await db
          .selectFrom("status_page_component_monitors")
          .select("component_id")
          .where("monitor_id", "in", sources.monitorIds)
          .execute())
          ids.add(r.component_id);
      if (sources.ruleIds.length > 0)
        for (const r of await db
          .selectFrom("status_page_component_rules")
          .select("component_id")
          .where("rule_id", "in", sources.ruleIds)
          .execute())
          ids.add(r.component_id);
      return [...ids];
    },

    /**
     * The components fed by rules whose mute ended in (`after`, `upTo`]: their open incidents
     * count and show again from then on, whether or not a component's state moves.
     */
    async componentsOfMutesEndedIn(after: string, upTo: string): Promise<string[]> {
      const rows = await db
        .selectFrom("status_page_component_rules as l")
        .innerJoin("alert_rules as r", "r.id", "l.rule_id")
        .select("l.component_id")
        .distinct()
        .where("r.muted", "=", 1)
        .where("r.muted_until", ">", after)
        .where("r.muted_until", "<=", upTo)
        .execute();
      return rows.map((r) => r.component_id);
    },

    /** Components of one monitor with their pages: where a check is counted. */
    async componentsOfMonitor(monitorId: string): Promise<{ id: string; pageId: string }[]> {
      const rows = await db
        .selectFrom("status_page_component_monitors as l")
        .innerJoin("status_page_components as c", "c.id", "l.component_id")
        .select(["c.id", "c.page_id"])
        .where("l.monitor_id", "=", monitorId)
        .orderBy("c.id")
        .execute();
      return rows.map((r) => ({ id: r.id, pageId: r.page_id }));
    },

    /** The pages of these components, in id order (the order their rows are locked in). */
    async pagesOfComponents(ids: readonly string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom("status_page_components")
        .select("page_id")
        .distinct()
        .where("id", "in", ids)
        .orderBy("page_id")
        .execute();
      return rows.map((r) => r.page_id);
    },

    async components(ids: readonly string[]): Promise<ComponentStateRow[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom("status_page_components")
        .select(["id", "page_id", "state", "state_changed_at"])
        .where("id", "in", ids)
        // One order for every writer, so two transactions never wait on each other's rows.
        .orderBy("id")
        .execute();
      return rows.map((r) => ({
        id: r.id,
        pageId: r.page_id,
        state: r.state as ComponentState,
        stateChangedAt: r.state_changed_at,
      }));
    },

    /** A page of component ids in id order, for the periodic reconciliation. */
    async componentIdsAfter(afterId: string, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom("status_page_components")
        .select("id")
        .where("id", ">", afterId)
        .orderBy("id")
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    },

    /**
     * Monitor, rule and open-incident states of the components' sources at `now` (an ISO time:
     * whether a rule's mute still holds).
     */
    async sourceStates(componentIds: readonly string[], now: string): Promise<SourceStates> {
      const states: SourceStates = { monitors: new Map(), rules: new Map(), incidents: new Map() };
      if (componentIds.length === 0) return states;
      const monitors = await db
        .selectFrom("status_page_component_monitors as l")
        .innerJoin("monitors as m", "m.id", "l.monitor_id")
        .select(["l.component_id", "m.id", "m.status", "m.health"])
        .where("l.component_id", "in", componentIds)
        .execute();
      for (const m of monitors)
        push(states.monitors, m.component_id, {
          id: m.id,
          active: m.status === "active",
          inOutage: m.health === "outage",
        });
      const rules = await db
        .selectFrom("status_page_component_rules as l")
        .innerJoin("alert_rules as r", "r.id", "l.rule_id")
        .select(["l.component_id", "r.id", "r.state", "r.muted", "r.muted_until"])
        .where("l.component_id", "in", componentIds)
        .execute();
      for (const r of rules)
        push(states.rules, r.component_id, {
          id: r.id,
          firing: r.state === "firing",
          muted: Number(r.muted) === 1,
          mutedUntil: r.muted_until,
        });
      // Open incidents of each component's sources: shown and counted where it publishes them.
      const own = new Map<string, Map<string, CountedIncidentRecord>>();
      const add = (componentId: string, id: string, incident: CountedIncidentRecord) => {
        const byId = own.get(componentId) ?? new Map<string, CountedIncidentRecord>();
        own.set(componentId, byId);
        const seen = byId.get(id);
        byId.set(id, { ...incident, ownSource: incident.ownSource || (seen?.ownSource ?? false) });
      };
      for (const kind of ["monitor", "alert"] as const)
        for (const r of await ownIncidents(kind, componentIds, now))
          add(r.component_id, r.id, { severity: r.severity as Severity, ownSource: true });
      // Incidents linked by hand count by their severity, published or not.
      const linked = await db
        .selectFrom("status_page_incident_components as l")
        .innerJoin("incidents as i", "i.id", "l.incident_id")
        .select(["l.component_id", "i.id", "i.severity"])
        .where("l.component_id", "in", componentIds)
        .where("i.status", "=", "active")
        .execute();
      for (const i of linked)
        add(i.component_id, i.id, { severity: i.severity as Severity, ownSource: false });
      for (const [componentId, byId] of own) states.incidents.set(componentId, [...byId.values()]);
      return states;
    },

    /** Which of the components a maintenance window covers at `at`. */
    async inMaintenance(componentIds: readonly string[], at: string): Promise<Set<string>> {
      if (componentIds.length === 0) return new Set();
      const rows = await db
        .selectFrom("status_page_maintenance_components as mc")
        .innerJoin("status_page_maintenances as m", "m.id", "mc.maintenance_id")
        .select("mc.component_id")
        .where("mc.component_id", "in", componentIds)
        .where("m.starts_at", "<=", at)
        .where("m.ends_at", ">", at)
        .execute();
      return new Set(rows.map((r) => r.component_id));
    },

    /**
     * Moves a component from the state it was read in to `state`, fenced on what was read: false
     * when another writer (another node's tick) moved it first, so its interval is counted once.
     */
    async moveComponentState(
      from: Pick<ComponentStateRow, "id" | "state" | "stateChangedAt">,
      state: ComponentState,
      at: string,
    ): Promise<boolean> {
      const result = await db
        .updateTable("status_page_components")
        .set({ state, state_changed_at: at })
        .where("id", "=", from.id)
        .where("state", "=", from.state)
        .where("state_changed_at", "=", from.stateChangedAt)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** The current states of the pages' components, for the pages' states. */
    async componentStatesOfPages(
      pageIds: readonly string[],
    ): Promise<Map<string, ComponentState[]>> {
      const byPage = new Map<string, ComponentState[]>(pageIds.map((id) => [id, []]));
      if (pageIds.length === 0) return byPage;
      const rows = await db
        .selectFrom("status_page_components")
        .select(["page_id", "state"])
        .where("page_id", "in", pageIds)
        .execute();
      for (const r of rows) push(byPage, r.page_id, r.state as ComponentState);
      return byPage;
    },

    /** Sets the page's state when it moved, and bumps its data version either way. */
    async updatePage(
      id: string,
      change: { state: PageState; at: string; stateChanged: boolean },
    ): Promise<void> {
      await db
        .updateTable("status_pages")
        .set((eb) => ({
          data_version: eb("data_version", "+", 1),
          updated_at: change.at,
          ...(change.stateChanged ? { state: change.state, state_changed_at: change.at } : {}),
        }))
        .where("id", "=", id)
        .execute();
    },

    async pageStates(ids: readonly string[]): Promise<Map<string, PageState>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom("status_pages")
        .select(["id", "state"])
        .where("id", "in", ids)
        .execute();
      return new Map(rows.map((r) => [r.id, r.state as PageState]));
    },
  };
}
export type StatusPageStateRepository = ReturnType<typeof createStatusPageStateRepository>;
