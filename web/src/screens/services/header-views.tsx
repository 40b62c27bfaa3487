/*
 * SAVED VIEWS: the place of the saved-views menu (web/src/components/saved-views.tsx,
 * `SavedViews({ kind: "services" })`) in this area's headers, mounted here once it exists.
 */
export function HeaderViews() {
  return null;
}
