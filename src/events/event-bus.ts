/** Something that happened in a project, as subscribers (webhook endpoints, later) receive it. */
export interface DomainEvent<T = unknown> {
  /** Stable across retries of the same event, so receivers can de-duplicate. */
  id: string;
  /** e.g. `monitor.down`. */
  type: string;
  projectId: string;
  data: T;
  /** ISO 8601 UTC. */
  occurredAt: string;
  /** A sample made by a test action: subscribers that reach the outside world ignore it. */
  sample?: boolean;
}

export type EventHandler = (event: DomainEvent) => Promise<void> | void;

/** In-process publish/subscribe of domain events; publishing waits for every subscriber. */
export interface EventBus {
  /** Resolves once every subscriber has handled the event; rejects if any of them failed. */
  publish(event: DomainEvent): Promise<void>;
  /** Adds a subscriber; the returned function removes it. */
  subscribe(handler: EventHandler): () => void;
}

export function createEventBus(): EventBus {
  const handlers = new Set<EventHandler>();
  return {
    async publish(event) {
      // Every subscriber gets the event even when another fails; the failures are reported after.
      const outcomes = await Promise.allSettled(
        [...handlers].map(async (handler) => handler(event)),
      );
      const errors = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason] : []));
      const [first] = errors;
      if (errors.length === 1) throw first;
      if (errors.length > 1) {
        const messages = errors.map((e) => (e instanceof Error ? e.message : String(e)));
        throw new AggregateError(
          errors,
          `${errors.length} subscribers failed: ${messages.join("; ")}`,
        );
      }
    },
    subscribe(handler) {
      // A wrapper per subscription, so subscribing one function twice means two deliveries.
      const entry: EventHandler = (event) => handler(event);
      handlers.add(entry);
      return () => {
        handlers.delete(entry);
      };
    },
  };
}
