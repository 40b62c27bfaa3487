import { TLS_MIN_DAYS_LEFT } from "../../../../src/contracts/monitor-catalog";
import type { TlsDetailsView } from "../../../../src/contracts/monitors";
import { StateBadge } from "../../components/ui";
import { formatTime } from "../../lib/format";

/** Under this many days left a certificate reads as a warning (the tls kind's default threshold). */
const SOON_DAYS = TLS_MIN_DAYS_LEFT.default;

const daysTone = (days: number) => (days < 0 ? "bad" : days < SOON_DAYS ? "warn" : "ok");

const daysText = (days: number) =>
  days < 0
    ? `expired ${-days} day${days === -1 ? "" : "s"} ago`
    : `${days} day${days === 1 ? "" : "s"} left`;

/**
 * The certificate a step's TLS connection presented (a tls check, or any https request): days
 * left, issuer, validity, and whether the chain is trusted and the name matches.
 */
export function TlsCertificate({ tls }: { tls: TlsDetailsView }) {
  return (
    <div className="mon-tls">
      <p className="small">
        <strong>Certificate</strong>{" "}
        <StateBadge state={daysText(tls.daysLeft)} tone={daysTone(tls.daysLeft)} />{" "}
        <StateBadge
          state={tls.authorized ? "trusted chain" : "untrusted chain"}
          tone={tls.authorized ? "ok" : "bad"}
        />{" "}
        <StateBadge
          state={tls.hostnameMatches ? "name matches" : "name does not match"}
          tone={tls.hostnameMatches ? "ok" : "bad"}
        />
      </p>
      <dl className="kv mon-tls-fields">
        <div>
          <dt>Subject</dt>
          <dd>{tls.subject}</dd>
        </div>
        <div>
          <dt>Issuer</dt>
          <dd>{tls.issuer}</dd>
        </div>
        <div>
          <dt>Valid</dt>
          <dd>
            <time dateTime={tls.validFrom}>{formatTime(tls.validFrom)}</time> to{" "}
            <time dateTime={tls.validTo}>{formatTime(tls.validTo)}</time>
          </dd>
        </div>
        {tls.authorizationError && (
          <div>
            <dt>Chain error</dt>
            <dd className="mono">{tls.authorizationError}</dd>
          </div>
        )}
      </dl>
    </div>
  );
}
