import { lazy, Suspense, useEffect, useMemo } from "react";
import { Link, Redirect, Route, Switch, useLocation, useParams, useSearch } from "wouter";
import { useMe, useProjects, useSignOut } from "../api/session";
import { ErrorBoundary } from "../components/error-boundary";
import { Empty, Loading, ProblemMessage } from "../components/feedback";
import { projectPath } from "../lib/project-path";
import { parseRange, rememberRange, useRangeSpec, withRange } from "../lib/time-range";
import { ProjectContext } from "./project-context";
import { AREAS } from "./registry";

const LAST_PROJECT = "vigil:last-project";

/** The areas as lazily loaded components, built once. */
const AREA_COMPONENTS = new Map(
  AREAS.map((a) => [a.key, lazy(() => a.load().then((m) => ({ default: m.Area })))]),
);

/** `/`: the project used last on this browser, or the first one, or the projects list. */
export function Home() {
  const projects = useProjects();
  if (projects.isPending) return <Loading />;
  if (projects.isError) return <ProblemMessage error={projects.error} />;
  const last = localStorage.getItem(LAST_PROJECT);
  const target = projects.data.find((p) => p.id === last) ?? projects.data[0];
  return <Redirect to={target ? projectPath(target.id, "overview") : "/projects"} replace />;
}

/** A project's screens: navigation, switcher and the area the URL names. */
export function ProjectShell() {
  const { projectId = "" } = useParams<{ projectId: string }>();
  const me = useMe();
  const projects = useProjects();
  const project = projects.data?.find((p) => p.id === projectId);
  const role = me.data?.organizations.find((o) => o.id === project?.orgId)?.role ?? "viewer";
  const scope = useMemo(() => (project ? { project, role } : null), [project, role]);
  useEffect(() => {
    if (project) localStorage.setItem(LAST_PROJECT, project.id);
  }, [project]);
  // The range a URL names (a link, a picker, a zoom) becomes the session's: every screen opened
  // next without one shows it, and the navigation carries it.
  const search = useSearch();
  useEffect(() => {
    const spec = parseRange(new URLSearchParams(search));
    if (spec) rememberRange(spec);
  }, [search]);
  if (projects.isPending) return <Loading />;
  if (projects.isError) return <ProblemMessage error={projects.error} />;
  if (!scope)
    return (
      <main className="standalone">
        <Empty title="Project not found">
          It does not exist or is not in your organizations.{" "}
          <Link href="/projects">All projects</Link>
        </Empty>
      </main>
    );
  return (
    <ProjectContext.Provider value={scope}>
      <div className="app">
        <Sidebar projectId={projectId} />
        <div className="main-column">
          <TopBar projectId={projectId} />
          <main id="content" className="content" tabIndex={-1}>
            <Switch>
              {AREAS.map((area) => {
                const Screen = AREA_COMPONENTS.get(area.key);
                return (
                  <Route key={area.key} path={`/${area.key}`} nest>
                    <ErrorBoundary resetKey={area.key}>
                      <Suspense fallback={<Loading />}>{Screen && <Screen />}</Suspense>
                    </ErrorBoundary>
                  </Route>
                );
              })}
              <Route>
                <Redirect to="/overview" replace />
              </Route>
            </Switch>
          </main>
        </div>
      </div>
    </ProjectContext.Provider>
  );
}

function Sidebar({ projectId }: { projectId: string }) {
  const [location] = useLocation();
  const range = useRangeSpec();
  const sections = ["Observe", "Respond", "Configure"] as const;
  return (
    <nav className="sidebar" aria-label="Screens">
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <Link href={withRange(`~${projectPath(projectId, "overview")}`, range)} className="brand">
        Vigil
      </Link>
      {sections.map((section) => (
        <div key={section} className="nav-section">
          <h2>{section}</h2>
          <ul>
            {AREAS.filter((a) => a.section === section).map((area) => {
              const active = location === `/${area.key}` || location.startsWith(`/${area.key}/`);
              return (
                <li key={area.key}>
                  <Link
                    href={withRange(`/${area.key}`, range)}
                    aria-current={active ? "page" : undefined}
                    className={active ? "active" : ""}
                  >
                    {area.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}

function TopBar({ projectId }: { projectId: string }) {
  const me = useMe();
  const projects = useProjects();
  const signOut = useSignOut();
  const [location, navigate] = useLocation();
  const range = useRangeSpec();
  const orgs = me.data?.organizations ?? [];
  return (
    <header className="top-bar">
      <label className="inline-field">
        <span>Project</span>
        <select
          value={projectId}
          aria-label="Project"
          onChange={(e) => {
            const area = location.split("/")[1] || "overview";
            navigate(withRange(`~${projectPath(e.target.value, area)}`, range));
          }}
        >
          {orgs.map((org) => (
            <optgroup key={org.id} label={org.name}>
              {(projects.data ?? [])
                .filter((p) => p.orgId === org.id)
                .map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
            </optgroup>
          ))}
        </select>
      </label>
      <Link href="~/projects" className="button small">
        All projects
      </Link>
      <span className="spacer" />
      <span className="muted">{me.data?.user.email}</span>
      <button
        type="button"
        className="button small"
        onClick={() => signOut.mutate(undefined, { onSettled: () => navigate("~/signin") })}
      >
        Sign out
      </button>
    </header>
  );
}
