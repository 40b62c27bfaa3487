import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useEffect } from "react";
import { Redirect, Route, Switch, useLocation } from "wouter";
import { ApiError, SIGNED_OUT_EVENT } from "./api/client";
import { ME_KEY, meQuery, projectsQuery, useMe } from "./api/session";
import { Loading, ProblemMessage } from "./components/feedback";
import { AcceptInvite } from "./screens/accept-invite";
import { ProjectsScreen } from "./screens/projects";
import { AREAS } from "./screens/registry";
import { Home, ProjectShell } from "./screens/shell";
import { SignIn } from "./screens/sign-in";

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      refetchOnWindowFocus: false,
      // A 4xx will not change by asking again; a network blip or a 5xx may.
      retry: (count, error) =>
        count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
    },
  },
});

/**
 * Starts, before React renders, what the first screen will need: the session, then the project
 * list, and the code of the area the URL names. Without this they load one after the other.
 */
export function warmUp(pathname: string): void {
  // Pages outside sign-in: no session to ask for yet.
  if (pathname.startsWith("/signin") || pathname.startsWith("/invite/")) return;
  // The projects once the session is known to be signed in: asked signed out, they are a 401.
  void queryClient.fetchQuery(meQuery).then(
    (me) => me && queryClient.prefetchQuery(projectsQuery),
    () => undefined,
  );
  const area = /^\/projects\/[^/]+\/([^/]+)/.exec(pathname)?.[1];
  // A failed load shows when the screen asks for it again (its error boundary), not here.
  AREAS.find((a) => a.key === area)
    ?.load()
    .catch(() => undefined);
}

/** Screens past this point need a session; without one the user goes to sign in, and back. */
function RequireSession({ children }: { children: ReactNode }) {
  const me = useMe();
  const [location] = useLocation();
  if (me.isPending) return <Loading />;
  if (me.isError) return <ProblemMessage error={me.error} />;
  if (!me.data)
    return (
      <Redirect
        to={`/signin?next=${encodeURIComponent(location + window.location.search)}`}
        replace
      />
    );
  return <>{children}</>;
}

/** A 401 anywhere means the session ended: forget the user, and RequireSession sends them to sign in. */
function SignedOutListener() {
  useEffect(() => {
    const onSignedOut = () => {
      if (queryClient.getQueryData(ME_KEY)) queryClient.setQueryData(ME_KEY, null);
    };
    window.addEventListener(SIGNED_OUT_EVENT, onSignedOut);
    return () => window.removeEventListener(SIGNED_OUT_EVENT, onSignedOut);
  }, []);
  return null;
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <SignedOutListener />
      <Switch>
        <Route path="/signin" component={SignIn} />
        <Route path="/invite/:token" component={AcceptInvite} />
        <Route>
          <RequireSession>
            <Switch>
              <Route path="/" component={Home} />
              <Route path="/projects" component={ProjectsScreen} />
              <Route path="/projects/:projectId" nest component={ProjectShell} />
              <Route>
                <Redirect to="/" replace />
              </Route>
            </Switch>
          </RequireSession>
        </Route>
      </Switch>
    </QueryClientProvider>
  );
}
