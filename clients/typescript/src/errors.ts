/** Every failure of a call: an error the API answered (`status` its HTTP
 * status, `code` its stable code: invalid_argument, not_found,
 * context_not_found, conflict, overloaded, unauthorized, ...) or the
 * transport's (`code` connection_error, no status). A guest failure is not
 * an error: it is a Result with outcome failed. `message` is the API's. */
export class WasmexecError extends Error {
  readonly code: string;
  readonly status?: number;
  /** Seconds, from Retry-After on 429 and 503. */
  readonly retryAfter?: number;
  readonly requestId?: string;

  constructor(code: string, message: string, opts: { status?: number; retryAfter?: number; requestId?: string; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "WasmexecError";
    this.code = code;
    this.status = opts.status;
    this.retryAfter = opts.retryAfter;
    this.requestId = opts.requestId;
  }

  override toString(): string {
    return `WasmexecError: ${this.code}: ${this.message}${this.status ? ` (HTTP ${this.status})` : ""}`;
  }

  static async fromResponse(resp: Response): Promise<WasmexecError> {
    const text = await resp.text().catch(() => "");
    let code = `http_${resp.status}`;
    let message = text.trim();
    try {
      const body = JSON.parse(text);
      if (body && typeof body.code === "string" && body.code) {
        code = body.code;
        message = String(body.message ?? "");
      }
    } catch {
      // not JSON: keep the text
    }
    const ra = resp.headers.get("retry-after");
    return new WasmexecError(code, message, {
      status: resp.status,
      retryAfter: ra !== null && !Number.isNaN(Number(ra)) ? Number(ra) : undefined,
      requestId: resp.headers.get("x-request-id") ?? undefined,
    });
  }
}
