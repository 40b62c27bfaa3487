/**
 * The absolute base URL of the web app, for links the server makes outside a request (an
 * acknowledge link in a notification, an invitation, a subscriber's confirmation email): the
 * configured VIGIL_PUBLIC_URL, or else the address the HTTP server listens on once it does.
 */
export class AppUrl {
  #listening: string | undefined;

  constructor(private readonly configured: string | undefined) {}

  /** Called once the HTTP server listens (its port may have been chosen by the system). */
  listeningAt(url: string): void {
    this.#listening = url.replace(/\/+$/, "");
  }

  /** The base without a trailing slash; http://localhost:4318 before the server listens. */
  base(): string {
    return this.configured?.replace(/\/+$/, "") ?? this.#listening ?? "http://localhost:4318";
  }

  /** An absolute link to a path of the app (`/ack/…`), its segments already encoded by the caller. */
  link(path: string): string {
    return `${this.base()}${path.startsWith("/") ? path : `/${path}`}`;
  }
}
