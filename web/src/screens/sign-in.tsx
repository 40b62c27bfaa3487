import { type FormEvent, useState } from "react";
import { useLocation, useSearch } from "wouter";
import { useSignIn } from "../api/session";
import { ProblemMessage } from "../components/feedback";

/**
 * Only paths inside the dashboard are followed after signing in (no open redirect). Resolved as
 * the browser would: `/\host` and `/<tab>/host` are other origins too.
 */
export function safeNext(next: string | null): string {
  if (!next?.startsWith("/")) return "/";
  const url = new URL(next, window.location.origin);
  return url.origin === window.location.origin ? url.pathname + url.search + url.hash : "/";
}

export function SignIn() {
  const signIn = useSignIn();
  const [, navigate] = useLocation();
  const next = safeNext(new URLSearchParams(useSearch()).get("next"));
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate({ email, password }, { onSuccess: () => navigate(next, { replace: true }) });
  };
  return (
    <main className="sign-in">
      <form onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in to Vigil</h1>
        <label htmlFor="email">Email</label>
        <input
          id="email"
          type="email"
          autoComplete="username"
          // The page's only task: the cursor starts where the user types first.
          // biome-ignore lint/a11y/noAutofocus: a sign-in page with one form
          autoFocus
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <label htmlFor="password">Password</label>
        <input
          id="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {signIn.isError && <ProblemMessage error={signIn.error} title="Could not sign in" />}
        <button type="submit" className="button primary" disabled={signIn.isPending}>
          {signIn.isPending ? "Signing in…" : "Sign in"}
        </button>
        <p className="muted small">
          No account yet? The operator creates the first one with <code>vigil init</code>.
        </p>
      </form>
    </main>
  );
}
