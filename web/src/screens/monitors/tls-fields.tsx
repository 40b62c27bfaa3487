import { PORT, TLS_MIN_DAYS_LEFT } from "../../../../src/contracts/monitor-catalog";
import { TextField } from "../../components/text-field";
import { Field } from "../../components/ui";
import { fieldMessage, type KindFieldsProps, slotSetter } from "./kind-fields";

/** tls: the server whose certificate is checked, and how many days it must have left. */
export function TlsFields({ draft, update, error }: KindFieldsProps) {
  const set = slotSetter(update, "tls");
  const { tls } = draft;
  return (
    <section className="card mon-kind" aria-label="Certificate">
      <h2>Certificate</h2>
      <p className="muted small">
        Each check connects, and passes when the chain is trusted, the certificate matches the host
        name and it expires in no fewer days than the threshold.
      </p>
      <div className="mon-host-port">
        <TextField
          label="Host"
          name="host"
          error={error}
          hint="A host name or IP address, without scheme or port"
          className="mono"
          spellCheck={false}
          placeholder="www.example.com"
          value={tls.host}
          onChange={(host) => set({ host })}
        />
        <TextField
          label="Port"
          name="port"
          error={error}
          type="number"
          min={PORT.min}
          max={PORT.max}
          value={tls.port}
          onChange={(port) => set({ port })}
        />
      </div>
      <div className="mon-settings">
        <TextField
          label="Minimum days left"
          name="minDaysLeft"
          error={error}
          hint={`${TLS_MIN_DAYS_LEFT.min} to ${TLS_MIN_DAYS_LEFT.max}; fails when fewer remain`}
          type="number"
          min={TLS_MIN_DAYS_LEFT.min}
          max={TLS_MIN_DAYS_LEFT.max}
          value={tls.minDaysLeft}
          onChange={(minDaysLeft) => set({ minDaysLeft })}
        />
        <TextField
          label="Server name (optional)"
          name="servername"
          error={error}
          hint="Sent as SNI and matched against the certificate; empty: the host"
          className="mono"
          spellCheck={false}
          value={tls.servername}
          onChange={(servername) => set({ servername })}
        />
      </div>
      <details open={tls.ca !== "" || fieldMessage(error, "ca") !== undefined}>
        <summary>Private certificate authority</summary>
        <Field
          label="Trusted CA certificates (PEM, optional)"
          name="ca"
          error={error}
          hint="Trusted instead of the system's CAs; empty: the system's"
        >
          {(props) => (
            <textarea
              {...props}
              className="mono"
              rows={4}
              spellCheck={false}
              placeholder="-----BEGIN CERTIFICATE-----"
              value={tls.ca}
              onChange={(e) => set({ ca: e.target.value })}
            />
          )}
        </Field>
      </details>
    </section>
  );
}
