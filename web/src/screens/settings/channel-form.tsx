import type { ChannelView } from "../../../../src/contracts/channels";
import { Field } from "../../components/ui";
import type { ChannelTypeInfo, SettingSchema } from "./api";

/** The text a setting's input holds: lists one item per line. */
export type SettingValues = Record<string, string>;

const isList = (schema: SettingSchema) => schema.type === "array";

/** A camelCase key as a label, for settings without a title ("webhookUrl" → "Webhook url"). */
const labelOf = (key: string, schema: SettingSchema) =>
  schema.title ??
  key
    .replace(/([A-Z])/g, " $1")
    .replace(/^./, (c) => c.toUpperCase())
    .toLowerCase();

const entriesOf = (type: ChannelTypeInfo) => Object.entries(type.settings.properties ?? {});

/** The inputs' starting text: a channel's current (shown) settings, secrets left empty. */
export function initialValues(type: ChannelTypeInfo, channel?: ChannelView): SettingValues {
  const values: SettingValues = {};
  for (const [key, schema] of entriesOf(type)) {
    const current = channel?.settings[key];
    if (type.secretSettings.includes(key) || current === undefined)
      values[key] = typeof schema.default === "string" ? schema.default : "";
    else values[key] = Array.isArray(current) ? current.join("\n") : String(current);
  }
  return values;
}

/**
 * The settings object to send. Lists are split on lines and commas. When editing, an empty
 * secret is left out, so the server keeps the stored one (settings are merged).
 */
export function settingsOf(
  type: ChannelTypeInfo,
  values: SettingValues,
  editing: boolean,
): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const [key, schema] of entriesOf(type)) {
    const text = values[key] ?? "";
    if (editing && type.secretSettings.includes(key) && text.trim() === "") continue;
    if (isList(schema))
      settings[key] = text
        .split(/[\n,]/)
        .map((item) => item.trim())
        .filter(Boolean);
    else if (text.trim() !== "") settings[key] = text.trim();
  }
  return settings;
}

/**
 * The inputs of a channel type's settings, built from the JSON Schema the server's registry
 * gives (GET /api/channel-types): a URL, an email list... Each shows the server's message for
 * `settings.<key>` beside it.
 */
export function SettingsFields({
  type,
  values,
  onChange,
  error,
  channel,
}: {
  type: ChannelTypeInfo;
  values: SettingValues;
  onChange: (values: SettingValues) => void;
  error: unknown;
  /** When editing: the channel, whose secrets are shown masked. */
  channel?: ChannelView;
}) {
  const entries = entriesOf(type);
  if (entries.length === 0)
    return <p className="muted small">{type.label} channels have no settings.</p>;
  const required = new Set(type.settings.required ?? []);
  return (
    <>
      {entries.map(([key, schema]) => {
        const secret = type.secretSettings.includes(key);
        const masked = channel && secret ? channel.settings[key] : undefined;
        const hint = [
          schema.description,
          isList(schema) ? "One per line." : undefined,
          masked ? `Now ${String(masked)}; leave empty to keep it.` : undefined,
        ]
          .filter(Boolean)
          .join(" ");
        const set = (text: string) => onChange({ ...values, [key]: text });
        return (
          <Field
            key={key}
            label={labelOf(key, schema)}
            name={`settings.${key}`}
            error={error}
            {...(hint ? { hint } : {})}
          >
            {(props) =>
              schema.enum ? (
                <select {...props} value={values[key] ?? ""} onChange={(e) => set(e.target.value)}>
                  {schema.enum.map((choice) => (
                    <option key={choice} value={choice}>
                      {choice}
                    </option>
                  ))}
                </select>
              ) : isList(schema) ? (
                <textarea
                  {...props}
                  rows={3}
                  value={values[key] ?? ""}
                  onChange={(e) => set(e.target.value)}
                  required={required.has(key)}
                />
              ) : (
                <input
                  {...props}
                  type={
                    schema.format === "uri" ? "url" : schema.format === "email" ? "email" : "text"
                  }
                  value={values[key] ?? ""}
                  onChange={(e) => set(e.target.value)}
                  required={required.has(key) && !masked}
                  autoComplete={secret ? "off" : undefined}
                  {...(schema.maxLength ? { maxLength: schema.maxLength } : {})}
                />
              )
            }
          </Field>
        );
      })}
    </>
  );
}

/** A channel's settings as a short text for the list ("to: a@x, b@y"). */
export function settingsSummary(channel: ChannelView): string {
  const parts = Object.entries(channel.settings).map(
    ([key, value]) => `${key}: ${Array.isArray(value) ? value.join(", ") : String(value)}`,
  );
  return parts.join(" · ");
}
