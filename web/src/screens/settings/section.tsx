import type { ReactNode } from "react";

/** A settings section's heading: the title (`id` names the section), what it is, its actions. */
export function SectionHeader({
  id,
  title,
  titleClassName,
  intro,
  actions,
}: {
  id: string;
  title: ReactNode;
  titleClassName?: string;
  intro?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="settings-section-header">
      <div>
        <h2 id={id} className={titleClassName}>
          {title}
        </h2>
        {intro}
      </div>
      {actions}
    </div>
  );
}

/**
 * A settings tab: its heading with the intro (`intro`) and the add button (`actions`), then its
 * content; `readOnly` is the notice for those who may look but not change (viewers, members).
 */
export function SettingsSection({
  id,
  title,
  intro,
  actions,
  readOnly,
  children,
}: {
  id: string;
  title: string;
  intro: ReactNode;
  actions?: ReactNode;
  readOnly?: string | false;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id}>
      <SectionHeader
        id={id}
        title={title}
        intro={<p className="muted">{intro}</p>}
        actions={actions}
      />
      {readOnly && <p className="notice">{readOnly}</p>}
      {children}
    </section>
  );
}

/** The button that opens a tab's add form. */
export function AddButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" className="button primary" onClick={onClick}>
      {label}
    </button>
  );
}
