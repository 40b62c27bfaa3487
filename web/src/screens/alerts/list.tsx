import { Link } from "wouter";
import { ALERT_SEVERITIES } from "../../../../src/alerts/catalog";
import { canWrite } from "../../api/session";
import { Empty, QueryView } from "../../components/feedback";
import { PageHeader } from "../../components/ui";
import { formatNumber, formatRelative, formatTime } from "../../lib/format";
import { useUrlParams } from "../../lib/url-state";
import { useProject } from "../project-context";
import { type AlertRule, usePresets, useRules } from "./api";
import { conditionText, RULE_STATES, RuleStateBadge, ruleStateKey, SeverityBadge } from "./state";

/** `/alerts`: the rules with their state; filters live in the URL. */
export function RuleList() {
  const { projectId, role } = useProject();
  const rules = useRules(projectId);
  const presets = usePresets(projectId);
  const [params, setParams] = useUrlParams();
  const q = params.get("q") ?? "";
  const state = params.get("state") ?? "";
  const severity = params.get("severity") ?? "";
  const matches = (r: AlertRule) =>
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
      <search className="toolbar">
        <label className="field">
          <span>Search</span>
          <input
            type="search"
            value={q}
            placeholder="Rule name"
            onChange={(e) => setParams({ q: e.target.value })}
          />
        </label>
        <label className="field">
          <span>State</span>
          <select value={state} onChange={(e) => setParams({ state: e.target.value })}>
            <option value="">Any state</option>
            {RULE_STATES.map((s) => (
              <option key={s.key} value={s.key}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Severity</span>
          <select value={severity} onChange={(e) => setParams({ severity: e.target.value })}>
            <option value="">Any severity</option>
            {ALERT_SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        {(q || state || severity) && (
          <button
            type="button"
            className="button small"
            onClick={() => setParams({ q: undefined, state: undefined, severity: undefined })}
          >
            Clear filters
          </button>
        )}
      </search>
      <QueryView
        query={rules}
        isEmpty={(page) => page.data.length === 0}
        empty={
          <Empty title="No alert rules yet">
            {canWrite(role) ? (
              <Link href="/new">Create a rule from a preset or a TQL query</Link>
            ) : (
              "A member of the organization can create one."
            )}
          </Empty>
        }
      >
        {(page) => {
          const rows = page.data.filter(matches);
          if (rows.length === 0) return <Empty title="No rule matches these filters" />;
          return (
            <div className="table-scroll">
              <table className="data">
                <thead>
                  <tr>
                    <th scope="col">Rule</th>
                    <th scope="col">State</th>
                    <th scope="col">Severity</th>
                    <th scope="col">Condition</th>
                    <th scope="col">Last evaluation</th>
                    <th scope="col">Every</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <tr key={r.id}>
                      <td>
                        <Link href={`/${r.id}`}>{r.name}</Link>
                        <div className="muted small">
                          {r.preset ? presetTitle(r.preset.kind) : "TQL query"}
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
                            <time
                              dateTime={r.lastEvaluation.at}
                              title={formatTime(r.lastEvaluation.at)}
                            >
                              {formatRelative(r.lastEvaluation.at)}
                            </time>
                            <div
                              className={
                                r.lastEvaluation.error ? "field-error small" : "muted small"
                              }
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
                </tbody>
              </table>
            </div>
          );
        }}
      </QueryView>
    </>
  );
}
