import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { MEMBER_ROLES } from "../../../../src/contracts/auth";
import type { CreatedInvite, InviteView } from "../../../../src/contracts/invites";
import { api, type ListPage, orgApi } from "../../api/client";
import { ConfirmButton } from "../../components/confirm-button";
import { DataTable } from "../../components/data-table";
import { FormProblem, ProblemMessage, QueryView } from "../../components/feedback";
import { RelativeTime } from "../../components/relative-time";
import { TextField } from "../../components/text-field";
import { CopyButton, Field } from "../../components/ui";
import { useProject } from "../project-context";
import { submitWith, useListWrite } from "./list-write";

const invitesKey = (orgId: string) => ["settings", "org", orgId, "invites"] as const;
const invitesPath = (orgId: string, path = "") => orgApi(orgId, `/invites${path}`);

/** The roles someone may invite into: their own and those below it (only owners invite owners). */
const invitableRoles = (own: string) => {
  const index = (MEMBER_ROLES as readonly string[]).indexOf(own);
  return index < 0 ? [] : MEMBER_ROLES.slice(index);
};

/**
 * Invitations (owners and admins): invite by email with a role, the link of the one just sent
 * (copyable: emailed when the server has SMTP, to share by hand otherwise), the pending ones
 * with revoke.
 */
export function InvitesPanel() {
  const { orgId } = useProject();
  const [created, setCreated] = useState<CreatedInvite | null>(null);
  const pending = useQuery({
    queryKey: invitesKey(orgId),
    queryFn: () =>
      api<ListPage<InviteView>>(invitesPath(orgId), { query: { limit: 1000 } }).then(
        (page) => page.data,
      ),
  });
  return (
    <section className="settings-invites" aria-labelledby="invites-title">
      <h3 id="invites-title">Invite people</h3>
      {created && <InviteLink invite={created} onDismiss={() => setCreated(null)} />}
      <InviteForm onCreated={setCreated} />
      <QueryView
        query={pending}
        isEmpty={(list) => list.length === 0}
        empty={<p className="muted small">No pending invitations.</p>}
      >
        {(list) => (
          <DataTable
            columns={["Email", "Role", "Invited by", "Expires", { label: "Actions", hidden: true }]}
            caption="Pending invitations"
          >
            {list.map((invite) => (
              <InviteRow key={invite.id} invite={invite} />
            ))}
          </DataTable>
        )}
      </QueryView>
    </section>
  );
}

function InviteForm({ onCreated }: { onCreated: (invite: CreatedInvite) => void }) {
  const { orgId, role: own } = useProject();
  const roles = invitableRoles(own);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<string>("member");
  const create = useListWrite(
    () => api<CreatedInvite>(invitesPath(orgId), { method: "POST", body: { email, role } }),
    invitesKey(orgId),
    (invite) => {
      onCreated(invite);
      setEmail("");
    },
  );
  return (
    <form
      className="card form settings-inline-form"
      onSubmit={submitWith(create)}
      aria-label="Invite a member"
    >
      <div className="settings-form-row">
        <TextField
          label="Email to invite"
          name="email"
          type="email"
          error={create.error}
          value={email}
          onChange={setEmail}
          required
          maxLength={254}
        />
        <Field label="Invite as" name="role" error={create.error}>
          {(props) => (
            <select {...props} value={role} onChange={(e) => setRole(e.target.value)}>
              {roles.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <FormProblem error={create.error} fields={["email", "role"]} />
      <button type="submit" className="button primary" disabled={create.isPending}>
        {create.isPending ? "Inviting…" : "Send invitation"}
      </button>
    </form>
  );
}

/** The link of the invitation just made: shown this once (the server keeps only its hash). */
function InviteLink({ invite, onDismiss }: { invite: CreatedInvite; onDismiss: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.focus();
  }, []);
  return (
    <div className="notice secret-once invite-link" role="status" tabIndex={-1} ref={box}>
      <strong>
        {invite.emailed
          ? `Invitation emailed to ${invite.email}`
          : `Invitation for ${invite.email} created — not emailed`}
      </strong>
      <p>
        {invite.link === null
          ? "Only they receive the link, so only they can accept. It works once, until it expires."
          : `${invite.emailError ?? "It was not emailed"}. Copy the link and send it to them. It works once, until it expires; it is shown `}
        {invite.link !== null && <b>only this once</b>}
      </p>
      {invite.link !== null && (
        <div className="secret-row">
          <code className="secret-value">{invite.link}</code>
          <CopyButton text={invite.link} label="Copy link" />
        </div>
      )}
      <button type="button" className="button small" onClick={onDismiss}>
        Done
      </button>
    </div>
  );
}

function InviteRow({ invite }: { invite: InviteView }) {
  const { orgId, role: own } = useProject();
  const revoke = useListWrite(
    () => api<void>(invitesPath(orgId, `/${encodeURIComponent(invite.id)}`), { method: "DELETE" }),
    invitesKey(orgId),
  );
  const mayRevoke = invitableRoles(own).includes(invite.role);
  return (
    <tr data-invite={invite.email}>
      <td>{invite.email}</td>
      <td>
        <span className="settings-role">{invite.role}</span>
      </td>
      <td>{invite.invitedBy?.name ?? "—"}</td>
      <td>
        <RelativeTime at={invite.expiresAt} />
        {revoke.error ? <ProblemMessage error={revoke.error} /> : null}
      </td>
      <td className="settings-actions">
        {mayRevoke && (
          <ConfirmButton
            label="Revoke"
            question="The link stops working."
            confirmLabel="Revoke invitation"
            accessibleName={`Revoke the invitation of ${invite.email}`}
            pending={revoke.isPending}
            onConfirm={() => revoke.mutate()}
          />
        )}
      </td>
    </tr>
  );
}
