import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { MEMBER_ROLES, type MemberView } from "../../../../src/contracts/auth";
import { api, orgApi } from "../../api/client";
import { canManage, ME_KEY, useMe } from "../../api/session";
import { ConfirmButton } from "../../components/confirm-button";
import { DataTable } from "../../components/data-table";
import { Empty, ProblemMessage, QueryView } from "../../components/feedback";
import { RelativeTime } from "../../components/relative-time";
import { useProject } from "../project-context";
import { fetchMembers, keys } from "./api";
import { InvitesPanel } from "./invites";
import { SettingsSection } from "./section";

const ROLE_HELP: Record<MemberView["role"], string> = {
  owner: "everything, including members and their roles",
  admin: "manage projects, API keys and everything in them",
  member: "change monitors, alerts, incidents, channels and webhooks",
  viewer: "read only",
};

/** The organization's members and roles; owners change roles and remove members. */
export function MembersTab() {
  const { orgId, role } = useProject();
  const me = useMe();
  const members = useQuery({ queryKey: keys.members(orgId), queryFn: () => fetchMembers(orgId) });
  const owner = role === "owner";
  return (
    <SettingsSection
      id="members-title"
      title="Members"
      intro={
        <>
          Everyone in this project's organization, with their role. Owners and admins invite people
          by email (an invitation link valid for 7 days); the server can also add them with{" "}
          <code>vigil users create --org {orgId}</code>.
        </>
      }
    >
      <dl className="settings-roles">
        {MEMBER_ROLES.map((r) => (
          <div key={r}>
            <dt>{r}</dt>
            <dd>{ROLE_HELP[r]}</dd>
          </div>
        ))}
      </dl>
      {!owner && <p className="notice">Only owners can change roles or remove members.</p>}
      <QueryView
        query={members}
        isEmpty={(page) => page.data.length === 0}
        empty={<Empty title="No members" />}
      >
        {(page) => (
          <DataTable
            columns={[
              "Name",
              "Email",
              "Role",
              "Joined",
              owner && { label: "Actions", hidden: true },
            ]}
            caption="Members"
          >
            {page.data.map((member) => (
              <MemberRow
                key={member.userId}
                member={member}
                self={member.userId === me.data?.user.id}
                owner={owner}
              />
            ))}
          </DataTable>
        )}
      </QueryView>
      {canManage(role) && <InvitesPanel />}
    </SettingsSection>
  );
}

function MemberRow({ member, self, owner }: { member: MemberView; self: boolean; owner: boolean }) {
  const { orgId } = useProject();
  const client = useQueryClient();
  const path = orgApi(orgId, `/members/${encodeURIComponent(member.userId)}`);
  // A change to one's own role changes what the whole dashboard offers: reload the session too.
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: keys.members(orgId) }),
      ...(self ? [client.invalidateQueries({ queryKey: ME_KEY })] : []),
    ]);
  const change = useMutation({
    mutationFn: (role: string) => api<MemberView>(path, { method: "PATCH", body: { role } }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => api<void>(path, { method: "DELETE" }),
    onSuccess: refresh,
  });
  const error = change.error ?? remove.error;
  return (
    <tr data-member={member.email}>
      <td>
        {member.name}
        {self && <span className="badge badge-info settings-you">you</span>}
      </td>
      <td>{member.email}</td>
      <td>
        {owner ? (
          <select
            aria-label={`Role of ${member.email}`}
            value={change.isPending ? (change.variables ?? member.role) : member.role}
            disabled={change.isPending}
            onChange={(e) => {
              remove.reset();
              change.mutate(e.target.value);
            }}
          >
            {MEMBER_ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        ) : (
          <span className="settings-role">{member.role}</span>
        )}
        {error && <ProblemMessage error={error} />}
      </td>
      <td>
        <RelativeTime at={member.joinedAt} />
      </td>
      {owner && (
        <td className="settings-actions">
          <ConfirmButton
            label="Remove"
            question={self ? "You lose access to this organization." : "Their account stays."}
            confirmLabel="Remove member"
            accessibleName={`Remove ${member.email}`}
            pending={remove.isPending}
            onConfirm={() => {
              change.reset();
              remove.mutate();
            }}
          />
        </td>
      )}
    </tr>
  );
}
