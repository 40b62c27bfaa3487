import { useMemo } from "react";
import { Link, useLocation, useSearch } from "wouter";
import type { AlertRuleView } from "../../../../src/contracts/alerts";
import { canWrite } from "../../api/session";
import { ConfirmButton } from "../../components/confirm-button";
import { Empty, ProblemMessage, QueryView } from "../../components/feedback";
import { PageHeader } from "../../components/ui";
import { formatDuration, formatNumber, formatRelative, formatTime } from "../../lib/format";
import { useProject } from "../project-context";
import { useRule, useRuleAction } from "./api";
import { draftFromParams, fromRule } from "./draft";
import { RuleEvents } from "./events";
import { MuteControl } from "./mute";
import { RuleForm } from "./rule-form";
import { conditionText, RuleStateBadge, SeverityBadge } from "./state";

/**
 * `/alerts/new`, or `/alerts/new?query=…&name=…` started from a dashboard panel or the TQL
 * screen (`&builder=<json>` from its query builder).
 */
export function NewRule() {
  const { projectId, role } = useProject();
  const search = useSearch();
  const initial = useMemo(() => draftFromParams(new URLSearchParams(search)), [search]);
  if (!canWrite(role))
    return (
      <Empty title="Viewers cannot create alert rules">
        <Link href="/">Back to alerts</Link>
      </Empty>
    );
  return (
    <>
      <PageHeader title="New alert rule">
        <Link href="/" className="muted small">
          ← Alerts
        </Link>
      </PageHeader>
      {initial.source === "builder" ? (
        <p className="alr-last muted small" role="note">
          Started from the query builder: the rule reads one value per series over the look-back
          window below. Preview it, set the threshold, then create it.
        </p>
      ) : (
        initial.query && (
          <p className="alr-last muted small" role="note">
            Started from a dashboard panel's or the TQL screen's query: its window became the last
            five minutes and its variables their current values. Check that it returns one numeric
            column named <code>value</code>, then preview it.
          </p>
        )
      )}
      <RuleForm key={search} projectId={projectId} initial={initial} writer />
    </>
  );
}

/** `/alerts/:ruleId`: the rule's state, mute and delete, its editor and preview, its events. */
export function RuleScreen({ ruleId }: { ruleId: string }) {
  const { projectId } = useProject();
  const rule = useRule(projectId, ruleId);
  return (
    <QueryView query={rule}>{(data) => <Loaded rule={data} projectId={projectId} />}</QueryView>
  );
}

function Loaded({ rule, projectId }: { rule: AlertRuleView; projectId: string }) {
  const { role } = useProject();
  const [, navigate] = useLocation();
  const writer = canWrite(role);
  const remove = useRuleAction(projectId, rule.id, "delete");
  // The form starts from the rule as loaded; a refetch (state, last evaluation) keeps the edits.
  // biome-ignore lint/correctness/useExhaustiveDependencies: rebuilt only when the rule is saved
  const initial = useMemo(() => fromRule(rule), [rule.updatedAt]);
  const last = rule.lastEvaluation;
  return (
    <>
      <PageHeader
        title={rule.name}
        actions={
          writer && (
            <>
              <MuteControl rule={rule} projectId={projectId} />
              <ConfirmButton
                label="Delete"
                size="normal"
                question={`Delete “${rule.name}” with its series and events?`}
                pending={remove.isPending}
                onConfirm={() => remove.mutate(undefined, { onSuccess: () => navigate("/") })}
              />
            </>
          )
        }
      >
        <p className="alr-subtitle">
          <Link href="/" className="muted small">
            ← Alerts
          </Link>{" "}
          <RuleStateBadge rule={rule} /> <SeverityBadge severity={rule.severity} />{" "}
          <span className="muted small mono">{conditionText(rule)}</span>
          {!writer && rule.muted && (
            <span className="muted small">
              {rule.mutedUntil
                ? `muted until ${formatTime(rule.mutedUntil)}`
                : "muted indefinitely"}
            </span>
          )}
        </p>
      </PageHeader>
      {remove.isError && <ProblemMessage error={remove.error} />}
      <p className="alr-last muted small">
        {last ? (
          <>
            Last evaluated {formatRelative(last.at)} ({formatTime(last.at)}) in{" "}
            {formatDuration(last.durationMs)} ·{" "}
            {last.error ? (
              <span className="field-error">error: {last.error}</span>
            ) : (
              <>
                value {last.value === null ? "no data" : formatNumber(last.value)} over{" "}
                {last.series ?? 0} series · {rule.firingSeries} firing
              </>
            )}
          </>
        ) : (
          "Not evaluated yet."
        )}
      </p>
      {rule.warnings.map((w) => (
        <p key={w.code} className="alr-last alr-warning small" role="note">
          {w.message}
        </p>
      ))}
      {rule.failing && (
        <p className="alr-last field-error small" role="status">
          Failing since {formatTime(rule.failing.since)}: {rule.failing.failures} evaluation
          {rule.failing.failures === 1 ? "" : "s"} in a row failed ({rule.failing.reason}).{" "}
          {rule.failing.nextEvaluationAt
            ? `Backing off: next evaluation ${formatRelative(rule.failing.nextEvaluationAt)} (${formatTime(rule.failing.nextEvaluationAt)}). `
            : ""}
          The series keep their last states until the query works again.
        </p>
      )}
      <RuleForm projectId={projectId} initial={initial} rule={rule} writer={writer} />
      <RuleEvents projectId={projectId} ruleId={rule.id} />
    </>
  );
}
