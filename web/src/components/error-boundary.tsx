import { Component, type ErrorInfo, type ReactNode } from "react";
import { ProblemMessage } from "./feedback";

/** Catches a screen's render error (or a chunk that failed to load) so the shell stays usable. */
export class ErrorBoundary extends Component<
  { children: ReactNode; resetKey?: string },
  { error: unknown }
> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidUpdate(previous: { resetKey?: string }) {
    if (previous.resetKey !== this.props.resetKey && this.state.error)
      this.setState({ error: null });
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.warn("Screen failed", error, info.componentStack);
  }

  override render() {
    if (this.state.error)
      return <ProblemMessage error={this.state.error} title="This screen failed" />;
    return this.props.children;
  }
}
