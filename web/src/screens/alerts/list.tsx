import { Link } from "wouter";
import { ALERT_SEVERITIES } from "../../../../src/contracts/alert-catalog";
import type { AlertRuleView } from "../../../../src/contracts/alerts";
import { canWrite } from "../../api/session";
import { DataTable } from "../../components/data-table";
import { QueryView } from "../../components/feedback";
import {
  FilterToolbar,
  NoMatches,
  NothingYet,
  useListFilters,
} from "../../components/list-filters";
import { RelativeTime } from "../../components/relative-time";
import { PageHeader } from "../../components/ui";
import { formatNumber } from "../../lib/format";
import { useProject } from "../project-context";
import { usePresets, useRules } from "./api";
import { conditionText, RULE_STATES, RuleStateBadge, ruleStateKey, SeverityBadge } from "./state";

/** `/alerts`: the rules with their state; filters live in the URL. */
export function RuleList() {
  const { projectId, role } = useProject();
  const rules = useRules(projectId);
  const presets = usePresets(projectId);
  const filters = useListFilters(["q", "state", "severity"] as const);
  const { q, state, severity } = filters.values;
  const matches = (r: AlertRuleView) =>
    (!q || r.name.toLowerCase().includes(q.toLowerCase())) &&
    (!state || ruleStateKey(r) === state) &&
    (!severity || r.severity === severity);
  const presetTitle = (kind: string) => presets.data?.find((p) => p.kind === kind)?.title ?? kind;
  return (
    <>
      <PageHeader
        title="Alerts"
        actions={
          canWrite(role) && (
            <Link href="/new" className="button primary">
              New alert rule
            </Link>
          )
        }
      >
        <p className="muted small">
          Rules evaluate a TQL query on a schedule and fire past a threshold.
        </p>
      </PageHeader>
      <FilterToolbar
        filters={filters}
        search={{ key: "q", placeholder: "Rule name" }}
        selects={[
          { key: "state", label: "State", any: "Any state", options: RULE_STATES },
          { key: "severity", label: "Severity", any: "Any severity", options: ALERT_SEVERITIES },
        ]}
      />
      <QueryView
        query={rules}
        isEmpty={(page) => page.data.length === 0}
        empty={
          <NothingYet title="No alert rules yet" canCreate={canWrite(role)}>
            <Link href="/new">Create a rule from a preset or a TQL query</Link>
          </NothingYet>
        }
      >
        {(page) => {
          const rows = page.data.filter(matches);
          if (rows.length === 0) return <NoMatches title="No rule matches these filters" />;
          return (
            <DataTable
              columns={["Rule", "State", "Severity", "Condition", "Last evaluation", "Every"]}
            >
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>
                    <Link href={`/${r.id}`}>{r.name}</Link>
                    <div className="muted small">
                      {r.preset ? presetTitle(r.preset.kind) : "TQL query"}
                      {r.warnings.some((w) => w.code === "no_channels") && (
                        <span className="alr-warning" title={r.warnings[0]?.message}>
                          {" "}
                          · notifies no one
                        </span>
                      )}
                    </div>
                  </td>
                  <td>
                    <RuleStateBadge rule={r} />
                    {r.firingSeries > 0 && (
                      <div className="muted small">{r.firingSeries} series firing</div>
                    )}
                  </td>
                  <td>
                    <SeverityBadge severity={r.severity} />
                  </td>
                  <td className="mono small">{conditionText(r)}</td>
                  <td>
                    {r.lastEvaluation ? (
                      <>
                        <RelativeTime at={r.lastEvaluation.at} />
                        <div
                          className={r.lastEvaluation.error ? "field-error small" : "muted small"}
                        >
                          {r.lastEvaluation.error ??
                            `value ${r.lastEvaluation.value === null ? "no data" : formatNumber(r.lastEvaluation.value)}`}
                        </div>
                      </>
                    ) : (
                      <span className="muted">Not yet</span>
                    )}
                  </td>
                  <td>{r.interval}</td>
                </tr>
              ))}
            </DataTable>
          );
        }}
      </QueryView>
    </>
  );
}
