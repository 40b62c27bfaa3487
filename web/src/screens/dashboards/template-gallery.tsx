import { useId, useState } from "react";
import { useLocation } from "wouter";
import type { DashboardTemplateView } from "../../../../src/contracts/dashboards";
import { canWrite } from "../../api/session";
import { ProblemMessage, QueryView } from "../../components/feedback";
import { StateBadge } from "../../components/ui";
import { useProject } from "../project-context";
import { useDashboardTemplates, useInstallTemplate } from "./dashboards-api";
import { HowToSend } from "./how-to-send";

/**
 * The templates Vigil ships: what each charts, whether the project already sends that data
 * (and how to send it if not), and Install, which makes an ordinary dashboard of it.
 */
export function TemplateGallery() {
  const { projectId } = useProject();
  const templates = useDashboardTemplates(projectId);
  return (
    <section className="dsh-templates" aria-labelledby="dsh-templates-title">
      <h2 id="dsh-templates-title">Templates</h2>
      <QueryView query={templates} isEmpty={(list) => list.length === 0}>
        {(list) => (
          <ul className="dsh-template-grid">
            {list.map((t) => (
              <TemplateCard key={t.id} template={t} />
            ))}
          </ul>
        )}
      </QueryView>
    </section>
  );
}

function TemplateCard({ template: t }: { template: DashboardTemplateView }) {
  const { projectId, role } = useProject();
  const install = useInstallTemplate(projectId);
  const [, navigate] = useLocation();
  const [showHow, setShowHow] = useState(false);
  const howId = useId();
  return (
    <li className="card dsh-template" aria-label={t.title}>
      <h3>{t.title}</h3>
      <p className="muted small">{t.description}</p>
      <p className="small">
        {t.panelCount} panel{t.panelCount === 1 ? "" : "s"}{" "}
        {t.hasData === true && <StateBadge state="has data" tone="ok" />}
        {t.hasData === false && <StateBadge state="no data yet" tone="warn" />}
      </p>
      {t.hasData !== true && t.howToSend.trim() && (
        <>
          <button
            type="button"
            className="button small"
            aria-expanded={showHow}
            aria-controls={howId}
            onClick={() => setShowHow(!showHow)}
          >
            {t.hasData === false ? "How to send it" : "What it needs"}
          </button>
          {showHow && (
            <div id={howId} className="dsh-howto">
              <HowToSend markdown={t.howToSend} />
            </div>
          )}
        </>
      )}
      {install.error !== null && <ProblemMessage error={install.error} title="Not installed" />}
      {canWrite(role) && (
        <div className="dsh-template-actions">
          <button
            type="button"
            className="button small primary"
            disabled={install.isPending}
            aria-label={`Install ${t.title}`}
            onClick={() =>
              install.mutate({ templateId: t.id }, { onSuccess: (view) => navigate(`/${view.id}`) })
            }
          >
            {install.isPending ? "Installing…" : "Install"}
          </button>
        </div>
      )}
    </li>
  );
}
