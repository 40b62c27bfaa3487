import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, useLocation, useParams } from "wouter";
import type { AcceptedInvite, Invitation } from "../../../src/contracts/invites";
import { ApiError, api } from "../api/client";
import { ME_KEY, projectsQuery } from "../api/session";
import { FormProblem, Loading, ProblemMessage } from "../components/feedback";
import { TextField } from "../components/text-field";
import { formatTime } from "../lib/format";
import { projectPath } from "../lib/project-path";

/**
 * The page an invitation link opens (`/invite/<token>`), outside sign-in: what the invitation
 * is for, then a new password (and name), or the existing account's password; accepting signs
 * in and lands in the organization's first project. The token goes to the API in request bodies.
 */
export function AcceptInvite() {
  const { token = "" } = useParams<{ token: string }>();
  const invitation = useQuery({
    queryKey: ["invitation", token],
    queryFn: () => api<Invitation>("/api/invitations/preview", { method: "POST", body: { token } }),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return (
    <main className="sign-in">
      {invitation.isPending ? (
        <Loading label="Opening the invitation…" />
      ) : invitation.isError ? (
        <InvalidInvite error={invitation.error} />
      ) : (
        <AcceptForm token={token} invitation={invitation.data} />
      )}
    </main>
  );
}

/** Unknown, used, revoked and expired links are one answer (404); a 429 says to wait. */
function InvalidInvite({ error }: { error: unknown }) {
  const invalid = error instanceof ApiError && error.status === 404;
  return (
    <section className="card invite-invalid" aria-labelledby="invite-title">
      <h1 id="invite-title">{invalid ? "This invitation cannot be used" : "Invitation"}</h1>
      <ProblemMessage error={error} {...(invalid ? { title: "Invitation not valid" } : {})} />
      <p className="muted small">
        Already a member? <Link href="/signin">Sign in</Link>
      </p>
    </section>
  );
}

function AcceptForm({ token, invitation }: { token: string; invitation: Invitation }) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const existing = invitation.hasAccount;
  const accept = useMutation({
    mutationFn: () =>
      api<AcceptedInvite>("/api/invitations/accept", {
        method: "POST",
        body: { token, password, ...(!existing && name.trim() ? { name: name.trim() } : {}) },
      }),
    onSuccess: async (accepted) => {
      // Whoever was signed in before is not any more: start from the invitee's session.
      client.clear();
      client.setQueryData(ME_KEY, accepted.me);
      const projects = await client.fetchQuery(projectsQuery).catch(() => undefined);
      const target = projects?.data.find((p) => p.orgId === accepted.orgId);
      navigate(target ? projectPath(target.id, "overview") : "/projects", { replace: true });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    accept.mutate();
  };
  return (
    <form onSubmit={submit} aria-labelledby="invite-title">
      <h1 id="invite-title">Join {invitation.orgName}</h1>
      <p>
        {invitation.invitedBy ?? "Someone"} invited <b>{invitation.email}</b> to join{" "}
        <b>{invitation.orgName}</b> on Vigil as <b>{invitation.role}</b>.
      </p>
      <p className="muted small">
        {existing
          ? "This email already has an account: enter its password to add the organization to it."
          : "Choose a password for your new account."}{" "}
        The invitation expires on {formatTime(invitation.expiresAt)}.
      </p>
      {!existing && (
        <TextField
          label="Your name"
          name="name"
          error={accept.error}
          hint={`Optional; “${invitation.email.split("@")[0] ?? ""}” otherwise`}
          autoComplete="name"
          maxLength={100}
          value={name}
          onChange={setName}
        />
      )}
      <TextField
        label={existing ? "Password of your account" : "Password"}
        name="password"
        type="password"
        error={accept.error}
        {...(existing ? {} : { hint: "At least 8 characters" })}
        autoComplete={existing ? "current-password" : "new-password"}
        required
        maxLength={256}
        value={password}
        onChange={setPassword}
      />
      <FormProblem error={accept.error} fields={["name", "password"]} />
      <button type="submit" className="button primary" disabled={accept.isPending}>
        {accept.isPending ? "Joining…" : `Join ${invitation.orgName}`}
      </button>
    </form>
  );
}
