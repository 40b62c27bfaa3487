import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import type { AttributeFieldList, AttributeValueList } from "../../../src/contracts/attributes";
import { type ExploreSource, resolveField } from "../../../src/contracts/explore-filters";
import { api, v1 } from "../api/client";
import { useProject } from "../screens/project-context";
import {
  fieldOptions,
  moveActive,
  type NavigationKey,
  type SuggestOption,
  valueOptions,
} from "./suggest-options";
import "./field-suggest.css";

/** Typing settles this long before the catalog is asked. */
const DEBOUNCE_MS = 200;
/** Suggestions shown at once. */
const SHOWN = 20;

/** What both comboboxes take besides their own props; all optional. */
interface InputProps {
  /** The input's id, for a `<label htmlFor>`. */
  id?: string;
  /** The accessible name when no label points at the input. */
  "aria-label"?: string;
  placeholder?: string;
  disabled?: boolean;
  className?: string;
}

/** `value` once it has stopped changing for `ms`. */
function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * A text input with a list of suggestions (the WAI-ARIA combobox pattern): any text may be
 * typed; the arrows, Home and End move through the list, Enter or a click takes the active one,
 * Escape closes it. Suggestions open while the input has focus.
 */
function Combobox({
  value,
  onChange,
  options,
  loading,
  failed,
  what,
  input,
}: {
  value: string;
  onChange: (value: string) => void;
  options: readonly SuggestOption[];
  loading: boolean;
  failed: boolean;
  /** "fields", "values": the empty list's message. */
  what: string;
  input: InputProps;
}) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listId = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const shown = options.slice(0, SHOWN);
  const optionId = (i: number) => `${listId}-${i}`;
  const expanded = open && !input.disabled;

  const listed = shown.map((o) => o.value).join("\u0000");
  // A new list starts with nothing active: Enter then keeps what was typed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the suggestions change.
  useEffect(() => setActive(-1), [listed]);
  useEffect(() => {
    if (active < 0) return;
    const item = listRef.current?.children[active];
    if (item instanceof HTMLElement) item.scrollIntoView({ block: "nearest" });
  }, [active]);

  const pick = (option: SuggestOption) => {
    onChange(option.value);
    setOpen(false);
    setActive(-1);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const key = event.key;
    if (key === "ArrowDown" || key === "ArrowUp" || key === "Home" || key === "End") {
      if ((key === "Home" || key === "End") && !expanded) return;
      event.preventDefault();
      setOpen(true);
      setActive((current) => moveActive(current, shown.length, key as NavigationKey));
    } else if (key === "Enter" && expanded && active >= 0) {
      const option = shown[active];
      if (!option) return;
      event.preventDefault();
      pick(option);
    } else if (key === "Escape" && expanded) {
      // Only the list closes; a dialog around the input stays open.
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    } else if (key === "Tab") setOpen(false);
  };

  return (
    <div className={`suggest${input.className ? ` ${input.className}` : ""}`}>
      <input
        type="text"
        role="combobox"
        autoComplete="off"
        spellCheck={false}
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        {...(input.id ? { id: input.id } : {})}
        {...(input["aria-label"] ? { "aria-label": input["aria-label"] } : {})}
        {...(input.placeholder ? { placeholder: input.placeholder } : {})}
        disabled={input.disabled}
        value={value}
        onChange={(e) => {
          onChange(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      <div className="suggest-list" hidden={!expanded}>
        <div id={listId} ref={listRef} role="listbox" aria-label={`Suggested ${what}`}>
          {shown.map((option, i) => (
            <div
              key={option.value}
              id={optionId(i)}
              role="option"
              // Focus stays in the input (aria-activedescendant); the option is never tabbed to.
              tabIndex={-1}
              aria-selected={i === active}
              className={i === active ? "suggest-option active" : "suggest-option"}
              // Before the input's blur, so the click lands on an open list.
              onMouseDown={(e) => {
                e.preventDefault();
                pick(option);
              }}
              onMouseMove={() => setActive(i)}
            >
              <span className="suggest-value mono">
                {option.value === "" ? "(empty)" : option.value}
              </span>
              {option.numeric && (
                <span className="suggest-numeric" title="A number">
                  #
                </span>
              )}
              <span className="suggest-detail">{option.detail}</span>
            </div>
          ))}
        </div>
        {shown.length === 0 && (
          <p className="suggest-empty">
            {failed
              ? `No ${what} (the catalog did not answer)`
              : loading
                ? "Loading…"
                : `No ${what} seen`}
          </p>
        )}
      </div>
    </div>
  );
}

/** Answers stay fresh a minute: the catalog changes by the day, new keys aside. */
const STALE_MS = 60_000;

/**
 * A field of `source` (a column, `attributes.<key>` or `resource.<key>`, as the explorers'
 * filters take it): the project's most frequent ones containing what is typed, from the
 * attribute catalog, then the source's other columns. Any text may be typed.
 */
export function FieldSuggest({
  source,
  value,
  onChange,
  ...input
}: {
  source: ExploreSource;
  value: string;
  onChange: (field: string) => void;
} & InputProps) {
  const { projectId } = useProject();
  const q = useSettled(value.trim(), DEBOUNCE_MS);
  const fields = useQuery({
    queryKey: ["attribute-fields", projectId, source, q],
    queryFn: ({ signal }) =>
      api<AttributeFieldList>(v1(projectId, "/attributes"), {
        query: { source, q, limit: SHOWN },
        signal,
      }),
    staleTime: STALE_MS,
    placeholderData: keepPreviousData,
  });
  const options = fieldOptions(source, fields.data?.fields ?? [], q);
  return (
    <Combobox
      value={value}
      onChange={onChange}
      options={options}
      loading={fields.isPending}
      failed={fields.isError}
      what="fields"
      input={input}
    />
  );
}

/**
 * A value of `field` in `source`: the project's most frequent ones containing what is typed,
 * from the attribute catalog (values over 256 characters are not kept there). Any text may be
 * typed; without a field the source has, nothing is suggested.
 */
export function ValueSuggest({
  source,
  field,
  value,
  onChange,
  ...input
}: {
  source: ExploreSource;
  field: string;
  value: string;
  onChange: (value: string) => void;
} & InputProps) {
  const { projectId } = useProject();
  const q = useSettled(value, DEBOUNCE_MS);
  const named = field.trim();
  // Half-typed fields ("attri") name nothing: not asked, nothing suggested.
  const known = resolveField(source, named) !== undefined;
  const values = useQuery({
    queryKey: ["attribute-values", projectId, source, named, q],
    queryFn: ({ signal }) =>
      api<AttributeValueList>(v1(projectId, "/attributes/values"), {
        query: { source, field: named, q, limit: SHOWN },
        signal,
      }),
    enabled: known,
    staleTime: STALE_MS,
    // While typing, the last answer for the same field stays; another field's values go at once.
    placeholderData: (previous, query) => (query?.queryKey[3] === named ? previous : undefined),
  });
  const options = known ? valueOptions(values.data?.values ?? []) : [];
  return (
    <Combobox
      value={value}
      onChange={onChange}
      options={options}
      loading={known && values.isPending}
      failed={values.isError}
      what="values"
      input={input}
    />
  );
}
