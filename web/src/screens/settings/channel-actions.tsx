import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { api, projectApi } from "../../api/client";
import { ProblemMessage } from "../../components/feedback";
import { useProject } from "../project-context";
import { type Channel, type ChannelTestResult, keys } from "./api";
import { ConfirmAction } from "./confirm";

/** Send a sample notification and delete: the write actions of one channel. */
export function ChannelActions({
  channel,
  afterDelete,
}: {
  channel: Channel;
  afterDelete?: string;
}) {
  const { projectId } = useProject();
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const path = projectApi(projectId, `/channels/${encodeURIComponent(channel.id)}`);
  const test = useMutation({
    mutationFn: () => api<ChannelTestResult>(`${path}/test`, { method: "POST" }),
    onSuccess: () =>
      client.invalidateQueries({ queryKey: keys.channelDeliveries(projectId, channel.id) }),
  });
  const remove = useMutation({
    mutationFn: () => api<void>(path, { method: "DELETE" }),
    onSuccess: async () => {
      if (afterDelete) navigate(afterDelete);
      await client.invalidateQueries({ queryKey: keys.channels(projectId) });
    },
  });
  const error = test.error ?? remove.error;
  return (
    <div className="settings-action-group">
      <div className="settings-buttons">
        <button
          type="button"
          className="button small"
          disabled={test.isPending}
          onClick={() => test.mutate()}
          aria-label={`Send a test notification to ${channel.name}`}
        >
          {test.isPending ? "Sending…" : "Send test"}
        </button>
        <ConfirmAction
          label="Delete"
          question="Deletes it with its delivery log."
          confirmLabel="Delete channel"
          accessibleName={`Delete channel ${channel.name}`}
          pending={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      </div>
      {test.data && (
        <p className={`small ${test.data.ok ? "" : "field-error"}`} role="status">
          {test.data.ok
            ? channel.type === "webhook"
              ? "✓ Sample published (webhook endpoints do not receive samples; use an endpoint's own test)"
              : "✓ Test notification sent"
            : `✗ Not delivered: ${test.data.error ?? "unknown error"}`}
        </p>
      )}
      {error && <ProblemMessage error={error} />}
    </div>
  );
}
