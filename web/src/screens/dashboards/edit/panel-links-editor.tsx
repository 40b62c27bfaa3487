import { PanelLink } from "../../../../../src/contracts/dashboards";
import { useDashboards } from "../dashboards-api";

const KINDS = PanelLink.shape.kind.options;
const KIND_LABELS: Record<PanelLink["kind"], string> = {
  traces: "Traces",
  logs: "Logs",
  dashboard: "Another dashboard",
};
/** `${name}` as a link's parameters write it (filled from the row clicked or a variable). */
const slot = (name: string) => `$\{${name}}`;
const PARAMS_HINT: Record<PanelLink["kind"], string> = {
  traces: `service=${slot("service_name")}&status=error, or trace_id=${slot("trace_id")} for one trace`,
  logs: `service=${slot("service_name")}&level=error`,
  dashboard: `var-service=${slot("service_name")} (this dashboard's variables and range are carried)`,
};

/**
 * Where a click on the panel's data may go: the traces or logs lists filtered by parameters
 * (`${column}` or `${variable}` filled in from the row clicked), or another dashboard.
 */
export function PanelLinksEditor({
  projectId,
  dashboardId,
  links,
  onChange,
}: {
  projectId: string;
  dashboardId: string;
  links: readonly PanelLink[];
  onChange: (links: PanelLink[]) => void;
}) {
  const needsList = links.some((l) => l.kind === "dashboard");
  const dashboards = useDashboards(projectId);
  const set = (index: number, change: Partial<PanelLink>) =>
    onChange(
      links.map((l, i) => {
        if (i !== index) return l;
        const next: PanelLink = { ...l, ...change };
        if (next.kind !== "dashboard") delete next.dashboardId;
        if (!next.params) delete next.params;
        return next;
      }),
    );
  return (
    <fieldset className="field-group dse-links">
      <legend>Links</legend>
      {links.length === 0 && <p className="muted small">None.</p>}
      {links.map((link, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; the index is their identity
        <div key={index} className="dse-link">
          <input
            aria-label={`Link ${index + 1} title`}
            placeholder="Title"
            value={link.title}
            maxLength={100}
            onChange={(e) => set(index, { title: e.target.value })}
          />
          <select
            aria-label={`Link ${index + 1} target`}
            value={link.kind}
            onChange={(e) => set(index, { kind: e.target.value as PanelLink["kind"] })}
          >
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </select>
          {link.kind === "dashboard" && (
            <select
              aria-label={`Link ${index + 1} dashboard`}
              value={link.dashboardId ?? ""}
              onChange={(e) => set(index, { dashboardId: e.target.value || undefined })}
            >
              <option value="">{needsList && dashboards.isPending ? "Loading…" : "Choose…"}</option>
              {(dashboards.data ?? [])
                .filter((d) => d.id !== dashboardId)
                .map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.title}
                  </option>
                ))}
            </select>
          )}
          <input
            className="mono dse-link-params"
            aria-label={`Link ${index + 1} parameters`}
            placeholder={PARAMS_HINT[link.kind]}
            value={link.params ?? ""}
            maxLength={1000}
            onChange={(e) => set(index, { params: e.target.value })}
          />
          <button
            type="button"
            className="button small"
            aria-label={`Remove link ${index + 1}`}
            onClick={() => onChange(links.filter((_, i) => i !== index))}
          >
            ✕
          </button>
        </div>
      ))}
      <button
        type="button"
        className="button small"
        disabled={links.length >= 10}
        onClick={() =>
          onChange([
            ...links,
            { title: "Traces", kind: "traces", params: `service=${slot("service_name")}` },
          ])
        }
      >
        Add link
      </button>
    </fieldset>
  );
}
