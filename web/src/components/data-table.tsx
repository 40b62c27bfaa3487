import type { ReactNode } from "react";

/** A column of a `DataTable`: its heading, right-aligned for numbers, or named for screen readers only. */
export type Column =
  | string
  | {
      label: string;
      /** Numbers: right-aligned, like their cells (`td.num`). */
      num?: boolean;
      /** A heading only screen readers need (a column of buttons: "Actions"). */
      hidden?: boolean;
    };

/**
 * A table of rows (`children`: the `<tr>`s) under headings, scrolling sideways on narrow
 * screens. `false` in `columns` leaves a column out (one a viewer does not get).
 */
export function DataTable({
  columns,
  caption,
  className,
  children,
}: {
  columns: readonly (Column | false)[];
  /** What the table lists, for screen readers. */
  caption?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className="table-scroll">
      <table className={className ? `data ${className}` : "data"}>
        {caption && <caption className="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column) => {
              if (column === false) return null;
              const { label, num, hidden } =
                typeof column === "string" ? { label: column, num: false, hidden: false } : column;
              return (
                <th key={label} scope="col" className={num ? "num" : undefined}>
                  {hidden ? <span className="visually-hidden">{label}</span> : label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
