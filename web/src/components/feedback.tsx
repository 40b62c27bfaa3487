import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ApiError, errorMessage } from "../api/client";

/** An API error as the user should read it: the server's detail and the fields it names. */
export function ProblemMessage({ error, title }: { error: unknown; title?: string }) {
  const problem = error instanceof ApiError ? error.problem : undefined;
  return (
    <div className="problem" role="alert">
      <strong>
        {title ?? (problem?.status ? `Error ${problem.status}` : "Something went wrong")}
      </strong>
      <p>{errorMessage(error)}</p>
      {problem?.errors && problem.errors.length > 0 && (
        <ul>
          {problem.errors.map((e) => (
            <li key={`${e.field}:${e.message}`}>
              <code>{e.field}</code> {e.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The error of a form's submission that no field shows: a field's own message is beside it
 * (`Field` with `name`); anything else (403, 409 without a field, a network failure) is here.
 */
export function FormProblem({ error, fields }: { error: unknown; fields: readonly string[] }) {
  if (!error) return null;
  if (error instanceof ApiError && fields.some((f) => error.fieldError(f) !== undefined))
    return null;
  return <ProblemMessage error={error} />;
}

export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {label}
    </div>
  );
}

export function Empty({ children, title }: { children?: ReactNode; title: string }) {
  return (
    <div className="empty">
      <strong>{title}</strong>
      {children && <div>{children}</div>}
    </div>
  );
}

/**
 * The three states every data view has besides its data: loading, error (the problem's detail)
 * and empty (`isEmpty` of the data); otherwise renders `children(data)`.
 */
export function QueryView<T>({
  query,
  isEmpty,
  empty,
  children,
  loadingLabel,
}: {
  query: UseQueryResult<T>;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  loadingLabel?: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading {...(loadingLabel ? { label: loadingLabel } : {})} />;
  if (query.isError) return <ProblemMessage error={query.error} />;
  if (isEmpty?.(query.data)) return <>{empty ?? <Empty title="Nothing here yet" />}</>;
  return <>{children(query.data)}</>;
}
