import { useMutation, useQueryClient } from "@tanstack/react-query";
import type {
  UpdateWebhookEndpointInput,
  WebhookDeliveryRecordView,
  WebhookEndpointView,
} from "../../../../src/contracts/webhooks";
import { api } from "../../api/client";
import { formatDuration } from "../../lib/format";
import { useProject } from "../project-context";
import { keys, webhookPath } from "./api";
import { ItemActions } from "./item-actions";
import { useDeleteItem } from "./list-write";

/** Enable/disable, send a test event and delete: the write actions of one endpoint. */
export function EndpointActions({
  endpoint,
  afterDelete,
}: {
  endpoint: WebhookEndpointView;
  /** Where to go once it is deleted (its own page is gone then). */
  afterDelete?: string;
}) {
  const { projectId } = useProject();
  const client = useQueryClient();
  const path = webhookPath(projectId, `/${encodeURIComponent(endpoint.id)}`);
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: keys.endpoints(projectId) }),
      client.invalidateQueries({ queryKey: keys.deliveries(projectId, endpoint.id) }),
    ]);
  const toggle = useMutation({
    mutationFn: () =>
      api<WebhookEndpointView>(path, {
        method: "PATCH",
        body: { isActive: !endpoint.isActive } satisfies UpdateWebhookEndpointInput,
      }),
    onSuccess: refresh,
  });
  const test = useMutation({
    mutationFn: () => api<WebhookDeliveryRecordView>(`${path}/test`, { method: "POST" }),
    onSuccess: refresh,
  });
  const remove = useDeleteItem(path, keys.endpoints(projectId), afterDelete);
  return (
    <ItemActions
      what="endpoint"
      name={endpoint.url}
      remove={remove}
      error={toggle.error ?? test.error ?? remove.error}
      result={
        test.data && (
          <p className="small" role="status">
            {test.data.success ? "✓ test.ping delivered" : "✗ test.ping failed"}:{" "}
            {test.data.status === 0 ? "no answer" : `HTTP ${test.data.status}`} in{" "}
            {formatDuration(test.data.durationMs)}
            {test.data.retryAt ? "; retried once in 60 s" : ""}
          </p>
        )
      }
    >
      <button
        type="button"
        className="button small"
        disabled={toggle.isPending}
        onClick={() => {
          test.reset();
          toggle.mutate();
        }}
        aria-label={`${endpoint.isActive ? "Disable" : "Enable"} ${endpoint.url}`}
      >
        {endpoint.isActive ? "Disable" : "Enable"}
      </button>
      <button
        type="button"
        className="button small"
        disabled={test.isPending || !endpoint.isActive}
        title={endpoint.isActive ? undefined : "Enable the endpoint to test it"}
        onClick={() => test.mutate()}
        aria-label={`Send a test event to ${endpoint.url}`}
      >
        {test.isPending ? "Sending…" : "Send test"}
      </button>
    </ItemActions>
  );
}
