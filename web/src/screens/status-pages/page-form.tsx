import { type FormEvent, useId, useMemo, useState } from "react";
import { MAX_LINKS, type StatusLink } from "../../../../src/contracts/status-pages";
import { FormProblem } from "../../components/feedback";
import { FieldGroup } from "../../components/field-group";
import { TextField } from "../../components/text-field";
import { Field } from "../../components/ui";
import type { PageFieldsInput } from "./api";

const PAGE_FIELDS = ["title", "slug", "description", "logoUrl", "timezone", "links"] as const;

/** The IANA zones this browser knows, for the time zone field's suggestions. */
function timeZones(): string[] {
  try {
    return Intl.supportedValuesOf("timeZone");
  } catch {
    return ["UTC"];
  }
}

/** A slug from a title: what the server accepts (lowercase, digits, single hyphens). */
export const slugify = (title: string): string =>
  title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63)
    .replace(/-+$/, "");

export const EMPTY_PAGE: PageFieldsInput = {
  slug: "",
  title: "",
  description: "",
  logoUrl: null,
  links: [],
  timezone: "UTC",
};

/**
 * The page's own fields (create and settings alike): slug, title, description, logo, links and
 * time zone, each with the server's message beside it.
 */
export function PageFieldsForm({
  initial,
  submitLabel,
  pending,
  error,
  onSubmit,
  autoSlug = false,
  formLabel,
}: {
  initial: PageFieldsInput;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (input: PageFieldsInput) => void;
  /** Derive the slug from the title until the user edits the slug (creation). */
  autoSlug?: boolean;
  formLabel: string;
}) {
  const [fields, setFields] = useState<PageFieldsInput>(initial);
  const [slugTouched, setSlugTouched] = useState(!autoSlug);
  const set = (change: Partial<PageFieldsInput>) => setFields((f) => ({ ...f, ...change }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({
      ...fields,
      logoUrl: fields.logoUrl?.trim() ? fields.logoUrl.trim() : null,
      links: fields.links.filter((l) => l.label.trim() || l.url.trim()),
    });
  };
  return (
    <form className="form" onSubmit={submit} aria-label={formLabel}>
      <Field label="Title" name="title" error={error}>
        {(props) => (
          <input
            {...props}
            value={fields.title}
            required
            maxLength={100}
            onChange={(e) =>
              set({
                title: e.target.value,
                ...(slugTouched ? {} : { slug: slugify(e.target.value) }),
              })
            }
          />
        )}
      </Field>
      <Field
        label="Slug"
        name="slug"
        error={error}
        hint="The public address /status/<slug>: lowercase letters, digits and hyphens"
      >
        {(props) => (
          <input
            {...props}
            value={fields.slug}
            required
            maxLength={63}
            pattern="[a-z0-9]+(-[a-z0-9]+)*"
            onChange={(e) => {
              setSlugTouched(true);
              set({ slug: e.target.value });
            }}
          />
        )}
      </Field>
      <Field label="Description" name="description" error={error}>
        {(props) => (
          <textarea
            {...props}
            value={fields.description}
            maxLength={1000}
            onChange={(e) => set({ description: e.target.value })}
          />
        )}
      </Field>
      <TextField
        label="Logo URL"
        name="logoUrl"
        error={error}
        hint="Optional, http or https"
        type="url"
        value={fields.logoUrl ?? ""}
        onChange={(v) => set({ logoUrl: v })}
      />
      <TimeZoneField
        value={fields.timezone}
        error={error}
        onChange={(timezone) => set({ timezone })}
      />
      <LinksField links={fields.links} error={error} onChange={(links) => set({ links })} />
      <FormProblem error={error} fields={PAGE_FIELDS} />
      <button type="submit" className="button primary" disabled={pending}>
        {pending ? "Saving…" : submitLabel}
      </button>
    </form>
  );
}

/** The time zone, with the zones this browser knows as suggestions. */
function TimeZoneField({
  value,
  error,
  onChange,
}: {
  value: string;
  error: unknown;
  onChange: (timezone: string) => void;
}) {
  const zones = useMemo(timeZones, []);
  const zoneList = useId();
  return (
    <Field
      label="Time zone"
      name="timezone"
      error={error}
      hint="Times on the public page are shown in it"
    >
      {(props) => (
        <>
          <input
            {...props}
            list={zoneList}
            value={value}
            required
            onChange={(e) => onChange(e.target.value)}
          />
          <datalist id={zoneList}>
            {zones.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
        </>
      )}
    </Field>
  );
}

/** The page's header links, up to MAX_LINKS, each a label and a URL. */
function LinksField({
  links,
  error,
  onChange,
}: {
  links: StatusLink[];
  error: unknown;
  onChange: (links: StatusLink[]) => void;
}) {
  const setLink = (index: number, change: Partial<StatusLink>) =>
    onChange(links.map((l, i) => (i === index ? { ...l, ...change } : l)));
  return (
    <FieldGroup legend="Links">
      {links.length === 0 && <p className="muted small">No links.</p>}
      {links.map((link, index) => (
        // Links have no id of their own; their place in the list is what the API names.
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional
        <div className="sp-link-row" key={index}>
          <TextField
            label={`Link ${index + 1} label`}
            name={`links.${index}.label`}
            error={error}
            value={link.label}
            maxLength={50}
            onChange={(v) => setLink(index, { label: v })}
          />
          <TextField
            label={`Link ${index + 1} URL`}
            name={`links.${index}.url`}
            error={error}
            type="url"
            value={link.url}
            onChange={(v) => setLink(index, { url: v })}
          />
          <button
            type="button"
            className="button small"
            aria-label={`Remove link ${index + 1}`}
            onClick={() => onChange(links.filter((_, i) => i !== index))}
          >
            Remove
          </button>
        </div>
      ))}
      {links.length < MAX_LINKS && (
        <button
          type="button"
          className="button small"
          onClick={() => onChange([...links, { label: "", url: "" }])}
        >
          Add link
        </button>
      )}
    </FieldGroup>
  );
}
