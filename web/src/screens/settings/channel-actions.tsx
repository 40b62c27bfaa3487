import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ChannelTestResult, ChannelView } from "../../../../src/contracts/channels";
import { api, projectApi } from "../../api/client";
import { useProject } from "../project-context";
import { keys } from "./api";
import { ItemActions } from "./item-actions";
import { useDeleteItem } from "./list-write";

/** Send a sample notification and delete: the write actions of one channel. */
export function ChannelActions({
  channel,
  afterDelete,
}: {
  channel: ChannelView;
  afterDelete?: string;
}) {
  const { projectId } = useProject();
  const client = useQueryClient();
  const path = projectApi(projectId, `/channels/${encodeURIComponent(channel.id)}`);
  const test = useMutation({
    mutationFn: () => api<ChannelTestResult>(`${path}/test`, { method: "POST" }),
    onSuccess: () =>
      client.invalidateQueries({ queryKey: keys.channelDeliveries(projectId, channel.id) }),
  });
  const remove = useDeleteItem(path, keys.channels(projectId), afterDelete);
  return (
    <ItemActions
      what="channel"
      name={channel.name}
      remove={remove}
      error={test.error ?? remove.error}
      result={
        test.data && (
          <p className={`small ${test.data.ok ? "" : "field-error"}`} role="status">
            {test.data.ok
              ? channel.type === "webhook"
                ? "✓ Sample published (webhook endpoints do not receive samples; use an endpoint's own test)"
                : "✓ Test notification sent"
              : `✗ Not delivered: ${test.data.error ?? "unknown error"}`}
          </p>
        )
      }
    >
      <button
        type="button"
        className="button small"
        disabled={test.isPending}
        onClick={() => test.mutate()}
        aria-label={`Send a test notification to ${channel.name}`}
      >
        {test.isPending ? "Sending…" : "Send test"}
      </button>
    </ItemActions>
  );
}
