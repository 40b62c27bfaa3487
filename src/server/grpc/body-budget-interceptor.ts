import {
  ResponderBuilder,
  ServerInterceptingCall,
  type ServerInterceptor,
  ServerListenerBuilder,
  status,
} from "@grpc/grpc-js";
import { bodyBudgetSpent } from "../../ingest/otlp/codec.js";
import type { BudgetLease, ByteBudget } from "../../lib/byte-budget.js";
import { toServiceError } from "./grpc-status.js";

export interface BodyBudgetOptions {
  /** The budget OTLP/HTTP bodies count against too. */
  budget: ByteBudget;
  /** The largest message a call may carry once decompressed (grpc-js enforces it). */
  maxMessageBytes: number;
  /** A call whose message has not arrived by then is ended (a trickling client holds no budget). */
  receiveTimeoutMs: number;
}

/**
 * Bounds the memory of OTLP/gRPC calls with the same budget as OTLP/HTTP. grpc-js reads and
 * inflates a message before any handler runs, so before it starts reading a call reserves the
 * worst case (the largest message); a call that does not fit is refused UNAVAILABLE with a
 * RetryInfo of 1 s, having read nothing. Once the message is in, only its real size stays held,
 * until the call ends.
 */
export function bodyBudgetInterceptor(options: BodyBudgetOptions): ServerInterceptor {
  const { budget, maxMessageBytes, receiveTimeoutMs } = options;
  return (_method, call) => {
    let lease: BudgetLease = budget.lease();
    let timer: NodeJS.Timeout | undefined;
    const end = () => {
      clearTimeout(timer);
      lease.release();
    };
    const listener = new ServerListenerBuilder()
      .withOnReceiveMetadata((metadata, next) => {
        if (!lease.take(maxMessageBytes)) {
          end();
          const refused = toServiceError(bodyBudgetSpent());
          call.sendStatus({ ...refused, details: refused.details ?? "" });
          return;
        }
        timer = setTimeout(() => {
          end();
          call.sendStatus({
            code: status.DEADLINE_EXCEEDED,
            details: `The request message did not arrive within ${receiveTimeoutMs / 1000} s`,
          });
        }, receiveTimeoutMs);
        next(metadata);
      })
      .withOnReceiveMessage((message: Buffer, next) => {
        clearTimeout(timer);
        // The worst case is given back; the message itself stays counted while it is handled.
        lease.release();
        lease = budget.lease();
        lease.take(message.length);
        next(message);
      })
      .withOnCancel(end)
      .build();
    const responder = new ResponderBuilder()
      .withStart((next) => next(listener))
      .withSendStatus((sent, next) => {
        end();
        next(sent);
      })
      .build();
    return new ServerInterceptingCall(call, responder);
  };
}
