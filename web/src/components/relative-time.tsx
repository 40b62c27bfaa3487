import { formatRelative, formatTime } from "../lib/format";

/** A moment as "5 min ago": the exact time on hover, and for machines in `dateTime`. */
export function RelativeTime({ at }: { at: string }) {
  return (
    <time dateTime={at} title={formatTime(at)}>
      {formatRelative(at)}
    </time>
  );
}
