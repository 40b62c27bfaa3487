import { z } from "zod";
import {
  defineWebhookEventType,
  EXAMPLE_AT,
  EXAMPLE_PROJECT_ID,
  isoTime,
} from "./webhook-event-type.js";

export const TestPingPayload = z.object({
  type: z.literal("test.ping"),
  message: z.string(),
  timestamp: isoTime,
  projectId: z.string(),
});
export type TestPingPayload = z.infer<typeof TestPingPayload>;

/** What an endpoint's test action sends; the webhooks' own event, never published to subscribers. */
export const TEST_PING_EVENT = defineWebhookEventType({
  name: "test.ping",
  description: "Sent by the endpoint's test action",
  emittedBy: "POST /webhooks/:projectId/endpoints/:endpointId/test",
  payload: TestPingPayload,
  example: {
    type: "test.ping",
    message: "This is a test delivery from Vigil",
    timestamp: EXAMPLE_AT,
    projectId: EXAMPLE_PROJECT_ID,
  },
});

/** The payload of a test.ping sent at `at`. */
export const testPingPayload = (projectId: string, at: Date): TestPingPayload => ({
  type: "test.ping",
  message: "This is a test delivery from Vigil",
  timestamp: at.toISOString(),
  projectId,
});
