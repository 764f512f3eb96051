/**
 * Typed service errors. A service throws a ServiceError whose `kind` says what went wrong in
 * transport-neutral terms; `error` is the exact wire string SPEC.md part 7 prescribes for the route
 * (e.g. "not found" on GET /intent but "not_found" on wallet routes), so each transport maps kind -> status
 * once and copies `error` and `message` verbatim.
 *
 * Expected outcomes (a BLOCK verdict, a limit refusal) are data, never ServiceErrors.
 */
export type ErrorKind =
  | "invalid_input" // 400
  | "unauthenticated" // 401
  | "payment_required" // 402
  | "forbidden" // 403
  | "not_found" // 404
  | "conflict" // 409
  | "payload_too_large" // 413
  | "rate_limited" // 429
  | "internal" // 500
  | "upstream_failed" // 502
  | "unavailable"; // 503

export class ServiceError extends Error {
  readonly kind: ErrorKind;
  readonly error: string;
  readonly detail: string | undefined;
  /** Extra fields merged into the wire body (e.g. `topup` terms on out_of_credits). */
  readonly extra: Record<string, unknown> | undefined;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers: Record<string, string> | undefined;

  constructor(
    kind: ErrorKind,
    error: string,
    detail?: string,
    opts?: { extra?: Record<string, unknown>; headers?: Record<string, string>; cause?: unknown },
  ) {
    super(detail ? `${error}: ${detail}` : error, opts?.cause ? { cause: opts.cause } : undefined);
    this.name = "ServiceError";
    this.kind = kind;
    this.error = error;
    this.detail = detail;
    this.extra = opts?.extra;
    this.headers = opts?.headers;
  }

  /** The SPEC 2.12 error body: `{ error, message? , ...extra }`. */
  body(): Record<string, unknown> {
    return { error: this.error, ...(this.detail !== undefined ? { message: this.detail } : {}), ...(this.extra ?? {}) };
  }
}

export const isServiceError = (e: unknown): e is ServiceError => e instanceof ServiceError;

export const notFound = (error = "not_found", detail?: string) => new ServiceError("not_found", error, detail);
export const invalidInput = (detail: string, error = "invalid_input") => new ServiceError("invalid_input", error, detail);
