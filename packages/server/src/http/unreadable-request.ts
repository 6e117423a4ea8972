import { STATUS_CODES } from "node:http";

/** A request the framework refused before our code saw it, in our words: its status, our code and what to do. */
export interface UnreadableRequest {
  status: number;
  code: string;
  detail: string;
}

/**
 * Fastify's own refusals (a body or an address it cannot read) as clients see them. Its `FST_…` codes name the
 * framework, not our API, and may change with it, so clients get these stable codes instead.
 */
const FRAMEWORK_REFUSALS: Record<string, UnreadableRequest> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: "empty_json_body",
    detail: "the body is empty but Content-Type says application/json: send a JSON body, or no Content-Type",
  },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: "invalid_json", detail: "the body is not valid JSON" },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: "unsupported_media_type",
    detail: "the body's Content-Type is not one this endpoint reads: send application/json",
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: "body_too_large",
    detail: "the body is larger than this endpoint accepts",
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: "invalid_content_length",
    detail: "the body's length differs from its Content-Length",
  },
  FST_ERR_BAD_URL: {
    status: 400,
    code: "invalid_url",
    detail: "the address holds a percent-encoding that does not decode",
  },
  FST_ERR_INVALID_URL: { status: 400, code: "invalid_url", detail: "the address cannot be read" },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: "url_too_long", detail: "a part of the address is too long" },
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: {
    status: 400,
    code: "missing_content_type",
    detail: "a request with a body needs a Content-Type",
  },
};

/** Codes for a refusal the table does not know, by status where the status's own name would say less. */
const CODES_BY_STATUS: Record<number, string> = {
  413: "body_too_large",
  414: "url_too_long",
  431: "headers_too_large",
};

/**
 * The client error (4xx) that `error` stands for when the framework or a plugin raised it rather than our code;
 * undefined for anything else (a failure of the service). The framework's own code never comes through.
 */
export function unreadableRequest(error: {
  code?: string | undefined;
  statusCode?: number | undefined;
  message: string;
}): UnreadableRequest | undefined {
  const known = error.code === undefined ? undefined : FRAMEWORK_REFUSALS[error.code];
  if (known) return known;
  const status = error.statusCode;
  if (status === undefined || status < 400 || status >= 500) return undefined;
  return { status, code: codeForStatus(status), detail: error.message };
}

/** `bad_request` for 400, `unsupported_media_type` for 415, … */
export function codeForStatus(status: number): string {
  return (
    CODES_BY_STATUS[status] ??
    (STATUS_CODES[status] ?? "Bad Request")
      .toLowerCase()
      .replace(/[^a-z]+/g, "_")
      .replace(/^_|_$/g, "")
  );
}
