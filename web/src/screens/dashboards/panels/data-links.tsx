import { Link } from "wouter";
import type { PanelLink } from "../../../../../src/contracts/dashboards";
import type { LinkFor } from "./links";

/**
 * A panel's links for one row or item, its placeholders filled from that row's values (the
 * screen's `linkFor` may fill the rest from the variables, or answer null to leave a link out).
 * Paths open through the router (`~` is absolute).
 */
export function DataLinks({
  links,
  values,
  linkFor,
}: {
  links: readonly PanelLink[];
  values: Readonly<Record<string, string>>;
  linkFor: LinkFor | null;
}) {
  if (!linkFor || links.length === 0) return null;
  const hrefs = links
    .map((link) => ({ link, href: linkFor({ kind: "link", link, values }) }))
    .filter((item): item is { link: PanelLink; href: string } => item.href !== null);
  if (hrefs.length === 0) return null;
  return (
    <span className="panel-links">
      {hrefs.map(({ link, href }) => (
        <Link key={`${link.title}:${href}`} href={`~${href}`} className="panel-link">
          {link.title}
        </Link>
      ))}
    </span>
  );
}
