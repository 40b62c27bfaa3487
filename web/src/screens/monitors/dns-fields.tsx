import {
  DNS_ASSERTION_TYPES,
  DNS_RECORD_TYPES,
  type DnsAssertionType,
  type DnsRecordType,
  MAX_DNS_ASSERTIONS,
  type Operator,
} from "../../../../src/contracts/monitor-catalog";
import { FieldGroup } from "../../components/field-group";
import { TextField } from "../../components/text-field";
import { Field } from "../../components/ui";
import { operatorLabel } from "./assertion-builder";
import type { DraftDnsAssertion } from "./draft";
import { newDnsAssertion, withDnsType } from "./kind-drafts";
import { fieldMessage, type KindFieldsProps, slotSetter } from "./kind-fields";
import { RemoveRowButton } from "./pair-rows";

/** What an answer of each record type looks like, as the check compares it. */
const ANSWER_EXAMPLES: Record<DnsRecordType, string> = {
  A: "93.184.215.14",
  AAAA: "2606:2800:21f:cb07::1",
  CNAME: "edge.example.net",
  MX: "10 mx.example.com",
  TXT: "v=spf1 include:_spf.example.com ~all",
};

/** dns: the name, the record type, the resolver asked, and the assertions on the answers. */
export function DnsFields({ draft, update, error, resetError }: KindFieldsProps) {
  const set = slotSetter(update, "dns");
  const { dns } = draft;
  return (
    <section className="card mon-kind" aria-label="DNS query">
      <h2>Query</h2>
      <div className="mon-dns-query">
        <TextField
          label="Domain"
          name="domain"
          error={error}
          hint="The name resolved"
          className="mono"
          spellCheck={false}
          placeholder="example.com"
          value={dns.domain}
          onChange={(domain) => set({ domain })}
        />
        <Field label="Record type" name="recordType" error={error}>
          {(props) => (
            <select
              {...props}
              value={dns.recordType}
              onChange={(e) => set({ recordType: e.target.value as DnsRecordType })}
            >
              {DNS_RECORD_TYPES.map((type) => (
                <option key={type}>{type}</option>
              ))}
            </select>
          )}
        </Field>
        <TextField
          label="Resolver (optional)"
          name="resolver"
          error={error}
          hint="An IP address, optionally with a port; empty: the system's resolver"
          className="mono"
          spellCheck={false}
          placeholder="1.1.1.1:53"
          value={dns.resolver}
          onChange={(resolver) => set({ resolver })}
        />
      </div>
      <DnsAssertionsEditor
        assertions={dns.assertions}
        example={ANSWER_EXAMPLES[dns.recordType]}
        error={error}
        onChange={(assertions) => set({ assertions })}
        onRemove={(index) => {
          // The server's messages name rows by place: after a removal they would point elsewhere.
          resetError();
          set({ assertions: dns.assertions.filter((_, i) => i !== index) });
        }}
      />
    </section>
  );
}

/**
 * The assertions on a lookup's answers. "An answer" passes when any answer compares true (the
 * not_* operators: when none does); "Number of answers" compares how many there are. Each row
 * offers only the operators its type allows (the catalog's table, as the server checks it).
 */
function DnsAssertionsEditor({
  assertions,
  example,
  error,
  onChange,
  onRemove,
}: {
  assertions: DraftDnsAssertion[];
  example: string;
  error: unknown;
  onChange: (next: DraftDnsAssertion[]) => void;
  onRemove: (index: number) => void;
}) {
  const edit = (index: number, change: (a: DraftDnsAssertion) => DraftDnsAssertion) =>
    onChange(assertions.map((a, i) => (i === index ? change(a) : a)));
  // A row's message shows beside its field; this is the list's own (too many rows).
  const listMessage = fieldMessage(error, "assertions", true);
  return (
    <FieldGroup legend="Assertions">
      {listMessage && (
        <p className="field-error" role="alert">
          {listMessage}
        </p>
      )}
      {assertions.length === 0 && (
        <p className="muted small">None: the check passes when the name has at least one answer.</p>
      )}
      {assertions.map((assertion, index) => {
        const where = `assertions.${index}`;
        const n = index + 1;
        return (
          <fieldset key={assertion.key} className="mon-row mon-dns-assertion">
            <legend className="visually-hidden">Assertion {n}</legend>
            <Field label="Type" name={`${where}.type`} error={error}>
              {(props) => (
                <select
                  {...props}
                  value={assertion.type}
                  onChange={(e) =>
                    edit(index, (a) => withDnsType(a, e.target.value as DnsAssertionType))
                  }
                >
                  {Object.entries(DNS_ASSERTION_TYPES).map(([type, info]) => (
                    <option key={type} value={type}>
                      {info.label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Operator" name={`${where}.operator`} error={error}>
              {(props) => (
                <select
                  {...props}
                  value={assertion.operator}
                  onChange={(e) =>
                    edit(index, (a) => ({ ...a, operator: e.target.value as Operator }))
                  }
                >
                  {DNS_ASSERTION_TYPES[assertion.type].operators.map((operator) => (
                    <option key={operator} value={operator}>
                      {operatorLabel(operator)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <TextField
              label="Value"
              name={`${where}.value`}
              error={error}
              className="mono"
              spellCheck={false}
              value={assertion.value}
              placeholder={assertion.type === "answer_count" ? "0" : example}
              inputMode={assertion.type === "answer_count" ? "numeric" : undefined}
              onChange={(value) => edit(index, (a) => ({ ...a, value }))}
            />
            <RemoveRowButton what={`assertion ${n}`} onClick={() => onRemove(index)} />
          </fieldset>
        );
      })}
      <button
        type="button"
        className="button small"
        disabled={assertions.length >= MAX_DNS_ASSERTIONS}
        onClick={() => onChange([...assertions, newDnsAssertion()])}
      >
        Add assertion
      </button>
    </FieldGroup>
  );
}
