import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  completionKeymap,
} from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { bracketMatching, HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { lintGutter, lintKeymap, setDiagnostics } from "@codemirror/lint";
import { Compartment, EditorSelection, EditorState, Prec, type Text } from "@codemirror/state";
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  placeholder,
} from "@codemirror/view";
import { tags } from "@lezer/highlight";
import { type Ref, useEffect, useImperativeHandle, useRef } from "react";
import { tqlCompletionSource } from "./completion";
import { clickhouseDialect } from "./dialect";
import type { TqlCatalog, TqlPosition } from "./tql-api";

/** What the screen can do to the editor. */
export interface EditorHandle {
  /** Replaces the whole text (loading a saved query or a history entry). */
  setText(text: string): void;
  /** Inserts at the cursor (a name picked in the schema browser). */
  insert(text: string): void;
  /** Focuses the editor with the cursor at a 1-based line and column. */
  focusAt(position: TqlPosition): void;
  focus(): void;
}

/** An error to underline: where, and the server's message. */
export interface EditorDiagnostic {
  position: TqlPosition;
  message: string;
}

const highlight = HighlightStyle.define([
  { tag: tags.keyword, color: "var(--tql-keyword)", fontWeight: "600" },
  { tag: [tags.standard(tags.name)], color: "var(--tql-function)" },
  { tag: tags.typeName, color: "var(--tql-type)" },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--tql-string)" },
  { tag: [tags.number, tags.bool, tags.null], color: "var(--tql-number)" },
  { tag: [tags.lineComment, tags.blockComment], color: "var(--muted)", fontStyle: "italic" },
  { tag: tags.operator, color: "var(--tql-operator)" },
]);

const theme = EditorView.theme({
  "&": { fontSize: "13px", backgroundColor: "var(--panel)", color: "var(--text)" },
  ".cm-content": {
    fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
    caretColor: "var(--text)",
    minHeight: "140px",
  },
  ".cm-scroller": { maxHeight: "420px", overflow: "auto" },
  ".cm-gutters": {
    backgroundColor: "var(--code-bg)",
    color: "var(--muted)",
    borderRight: "1px solid var(--border)",
  },
  ".cm-activeLine, .cm-activeLineGutter": { backgroundColor: "var(--row-hover)" },
  "&.cm-focused": { outline: "2px solid var(--focus)", outlineOffset: "-2px" },
  ".cm-placeholder": { color: "var(--muted)" },
  ".cm-tooltip": {
    backgroundColor: "var(--panel)",
    color: "var(--text)",
    border: "1px solid var(--border)",
  },
  ".cm-tooltip-autocomplete > ul > li[aria-selected]": {
    backgroundColor: "var(--accent)",
    color: "var(--accent-text)",
  },
  ".cm-completionDetail": { color: "inherit", opacity: 0.75, fontStyle: "normal" },
});

/** The offsets to underline for a 1-based line and column: the word there, or one character. */
export function diagnosticRange(doc: Text, position: TqlPosition): { from: number; to: number } {
  const line = doc.line(Math.min(Math.max(1, position.line), doc.lines));
  let from = Math.min(line.from + Math.max(0, position.column - 1), line.to);
  if (from === line.to && from > line.from) from--;
  let to = from;
  while (to < line.to && /[\w$]/.test(doc.sliceString(to, to + 1))) to++;
  if (to === from) to = Math.min(from + 1, doc.length);
  return { from, to };
}

/**
 * The TQL editor (CodeMirror 6): ClickHouse highlighting with the allowed functions, completion
 * from the server's schema, Ctrl/Cmd+Enter to run, Tab left to move focus (keyboard users are
 * not trapped), and the last error underlined where the server located it.
 */
export function TqlEditor({
  initialText,
  catalog,
  diagnostic,
  onChange,
  onRun,
  ref,
}: {
  initialText: string;
  catalog: TqlCatalog | undefined;
  diagnostic: EditorDiagnostic | null;
  onChange: (text: string) => void;
  onRun: (text: string) => void;
  ref?: Ref<EditorHandle>;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const language = useRef(new Compartment());
  const completion = useRef(new Compartment());
  // The latest callbacks, read by the editor's long-lived extensions.
  const callbacks = useRef({ onChange, onRun });
  callbacks.current = { onChange, onRun };
  const initial = useRef(initialText);

  useEffect(() => {
    if (!host.current) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: initial.current,
        extensions: [
          Prec.highest(
            keymap.of([
              {
                key: "Mod-Enter",
                preventDefault: true,
                run: (v) => {
                  callbacks.current.onRun(v.state.doc.toString());
                  return true;
                },
              },
            ]),
          ),
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightActiveLine(),
          history(),
          drawSelection(),
          bracketMatching(),
          closeBrackets(),
          lintGutter(),
          language.current.of(clickhouseDialect(undefined).language),
          completion.current.of([]),
          syntaxHighlighting(highlight),
          placeholder("SELECT service_name, count() FROM traces GROUP BY service_name"),
          keymap.of([
            ...closeBracketsKeymap,
            ...defaultKeymap,
            ...historyKeymap,
            ...completionKeymap,
            ...lintKeymap,
          ]),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({
            "aria-label": "TQL query (Ctrl+Enter runs it, Ctrl+Space completes)",
            "aria-multiline": "true",
          }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) callbacks.current.onChange(update.state.doc.toString());
          }),
          theme,
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, []);

  // The schema brings the function names (highlighting) and the completions.
  useEffect(() => {
    if (!catalog || !view.current) return;
    view.current.dispatch({
      effects: [
        language.current.reconfigure(clickhouseDialect(catalog).language),
        completion.current.reconfigure(
          autocompletion({ override: [tqlCompletionSource(catalog)], icons: true }),
        ),
      ],
    });
  }, [catalog]);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const diagnostics = diagnostic
      ? [
          {
            ...diagnosticRange(editor.state.doc, diagnostic.position),
            severity: "error" as const,
            source: "TQL",
            message: diagnostic.message,
          },
        ]
      : [];
    editor.dispatch(setDiagnostics(editor.state, diagnostics));
  }, [diagnostic]);

  useImperativeHandle(
    ref,
    () => ({
      setText(text) {
        const editor = view.current;
        if (!editor) return;
        editor.dispatch({
          changes: { from: 0, to: editor.state.doc.length, insert: text },
          selection: EditorSelection.cursor(text.length),
        });
        editor.focus();
      },
      insert(text) {
        const editor = view.current;
        if (!editor) return;
        editor.dispatch(editor.state.replaceSelection(text));
        editor.focus();
      },
      focusAt(position) {
        const editor = view.current;
        if (!editor) return;
        const { from } = diagnosticRange(editor.state.doc, position);
        editor.dispatch({ selection: EditorSelection.cursor(from), scrollIntoView: true });
        editor.focus();
      },
      focus() {
        view.current?.focus();
      },
    }),
    [],
  );

  return <div className="tql-editor" ref={host} />;
}
