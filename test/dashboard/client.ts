import type { TestRuntime } from "../helpers/runtime";

/**
 * A browser-like client for the dashboard over `app.request`: keeps cookies, sends the page's Origin on
 * POSTs and reads the CSRF token from the last page it loaded.
 */
export class DashboardClient {
  private cookies = new Map<string, string>();
  lastHtml = "";
  readonly origin = "http://localhost";

  constructor(private t: TestRuntime) {}

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  private store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const i = pair.indexOf("=");
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      const expired = attrs.some((a) => /max-age=0/i.test(a.trim()) || /expires=Thu, 01 Jan 1970/i.test(a.trim()));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async get(path: string): Promise<Response> {
    const res = await this.t.app.request(path, { headers: { cookie: this.header() } });
    this.store(res);
    if ((res.headers.get("content-type") ?? "").includes("text/html")) this.lastHtml = await res.clone().text();
    return res;
  }

  /** The `_csrf` value of the last page loaded. */
  csrf(): string {
    const m = /name="_csrf" value="([^"]+)"/.exec(this.lastHtml);
    if (!m) throw new Error("no CSRF token on the last page");
    return m[1];
  }

  async post(path: string, form: Record<string, string>, opts: { origin?: string | null; csrf?: string | null } = {}): Promise<Response> {
    const body = new URLSearchParams(form);
    const csrf = opts.csrf === undefined ? this.csrf() : opts.csrf;
    if (csrf !== null) body.set("_csrf", csrf);
    const origin = opts.origin === undefined ? this.origin : opts.origin;
    const res = await this.t.app.request(path, {
      method: "POST",
      headers: { cookie: this.header(), "content-type": "application/x-www-form-urlencoded", ...(origin ? { origin } : {}) },
      body: body.toString(),
    });
    this.store(res);
    if ((res.headers.get("content-type") ?? "").includes("text/html")) this.lastHtml = await res.clone().text();
    return res;
  }

  async signUp(email: string, password = "correct horse battery staple"): Promise<void> {
    await this.get("/dashboard/signup");
    const res = await this.post("/dashboard/signup", { email, password, accountName: "" });
    if (res.status !== 303) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  }

  async signIn(email: string, password: string, next?: string): Promise<Response> {
    await this.get(`/dashboard/login${next ? `?next=${encodeURIComponent(next)}` : ""}`);
    return this.post("/dashboard/login", { email, password, ...(next ? { next } : {}) });
  }

  async createKey(): Promise<string> {
    await this.get("/dashboard/keys");
    const res = await this.post("/dashboard/keys", {});
    const m = /data-copy="(svc_sk_live_[A-Za-z0-9_-]+)"/.exec(await res.text());
    if (!m) throw new Error("no key on the page");
    return m[1];
  }
}
