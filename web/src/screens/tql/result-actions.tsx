import { Link } from "wouter";
import type { BuilderQuery } from "../../../../src/contracts/query-builder";
import { compileBuilder } from "../../components/query-builder/builder-state";
import { alertFromBuilderHref, alertFromTqlHref } from "./alert-from-query";

/**
 * A result's actions for a writer: "Add to dashboard" (the drawer), and "Create alert", which
 * opens the alert rule form with the builder's alert query and state (in Builder mode) or with
 * the query run and its placeholders' values.
 */
export function ResultActions({
  projectId,
  builder,
  query,
  name,
  typed,
  onAdd,
}: {
  projectId: string;
  /** The builder's state in Builder mode, else null. */
  builder: BuilderQuery | null;
  query: string;
  name: string;
  typed: Readonly<Record<string, readonly string[]>>;
  onAdd: () => void;
}) {
  const alertable = builder === null || compileBuilder(builder, "alert").ok;
  return (
    <>
      <button type="button" className="button small" onClick={onAdd}>
        Add to dashboard
      </button>
      {alertable && (
        <Link
          className="button small"
          href={`~${
            builder
              ? alertFromBuilderHref(projectId, builder)
              : alertFromTqlHref(projectId, query, name, typed)
          }`}
        >
          Create alert
        </Link>
      )}
    </>
  );
}
