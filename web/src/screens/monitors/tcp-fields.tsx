import { MAX_TCP_TEXT_BYTES, PORT } from "../../../../src/contracts/monitor-catalog";
import { TextField } from "../../components/text-field";
import { Field } from "../../components/ui";
import { type KindFieldsProps, slotSetter } from "./kind-fields";

/** tcp: where to connect, and optionally a text to send and one to expect back. */
export function TcpFields({ draft, update, error }: KindFieldsProps) {
  const set = slotSetter(update, "tcp");
  const { tcp } = draft;
  return (
    <section className="card mon-kind" aria-label="Connection">
      <h2>Connection</h2>
      <div className="mon-host-port">
        <TextField
          label="Host"
          name="host"
          error={error}
          hint="A host name or IP address, without scheme or port"
          className="mono"
          spellCheck={false}
          placeholder="db.example.com"
          value={tcp.host}
          onChange={(host) => set({ host })}
        />
        <TextField
          label="Port"
          name="port"
          error={error}
          type="number"
          min={PORT.min}
          max={PORT.max}
          placeholder="5432"
          value={tcp.port}
          onChange={(port) => set({ port })}
        />
      </div>
      <Field
        label="Send (optional)"
        name="send"
        error={error}
        hint={`Sent as written once connected (line breaks as \\n), up to ${MAX_TCP_TEXT_BYTES} bytes`}
      >
        {(props) => (
          <textarea
            {...props}
            className="mono"
            rows={2}
            spellCheck={false}
            placeholder="PING"
            value={tcp.send}
            onChange={(e) => set({ send: e.target.value })}
          />
        )}
      </Field>
      <TextField
        label="Expect (optional)"
        name="expect"
        error={error}
        hint="Text that must appear in what the server sends within the timeout; empty: connecting is enough"
        className="mono"
        spellCheck={false}
        placeholder="PONG"
        value={tcp.expect}
        onChange={(expect) => set({ expect })}
      />
    </section>
  );
}
