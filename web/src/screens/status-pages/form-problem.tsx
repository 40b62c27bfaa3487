import { ApiError } from "../../api/client";
import { ProblemMessage } from "../../components/feedback";

/**
 * The error of a form's submission that no field shows: a field's own message is beside it
 * (`Field` with `name`), anything else (403, 409 without a field, network) is shown here.
 */
export function FormProblem({ error, fields }: { error: unknown; fields: readonly string[] }) {
  if (!error) return null;
  if (error instanceof ApiError && fields.some((f) => error.fieldError(f) !== undefined))
    return null;
  return <ProblemMessage error={error} />;
}
