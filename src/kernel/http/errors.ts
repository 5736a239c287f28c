/** A failure with a stable HTTP status; the error handler answers `{"detail": detail}` with `headers`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
    /** Extra members of the body beyond `detail` (for example `approval_request_id`). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
  }
}

/** RFC 6749 section 5.2 error, used on OAuth endpoints: `{"error", "error_description"}`. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

/** RFC 7644 section 3.12 error document, used on SCIM endpoints. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: string,
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string) => new HttpError(400, detail);
export const unauthorized = (detail = 'Not authenticated') => new HttpError(401, detail);
export const forbidden = (detail: string) => new HttpError(403, detail);
export const notFound = (detail = 'Not found') => new HttpError(404, detail);
export const conflict = (detail: string) => new HttpError(409, detail);
export const unprocessable = (detail: string) => new HttpError(422, detail);
