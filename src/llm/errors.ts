/**
 * SDK errors as values: a stable code, the HTTP status when there was one, a message a person can
 * act on. Messages come from the API's error body or the SDK, never from request content.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';

export type ModelErrorCode =
  | 'aborted'
  | 'timeout'
  | 'connection_error'
  | 'auth_error'
  | 'rate_limited'
  | 'overloaded'
  | 'prompt_too_long'
  | 'request_too_large'
  | 'bad_request'
  | 'api_error'
  | 'model_error';

export interface ModelError {
  code: ModelErrorCode;
  message: string;
  status?: number;
  /** prompt_too_long: what the API counted and its maximum, when it said so. */
  promptTokens?: { actual: number; max: number };
  /** The API's request-id, for support. */
  requestId?: string;
}

const clip = (s: string, n = 300): string => (s.length > n ? `${s.slice(0, n)}…` : s);

function fromStatus(status: number | undefined, type: string | null, message: string): ModelErrorCode {
  if (type === 'overloaded_error' || status === 529) return 'overloaded';
  if (type === 'rate_limit_error' || status === 429) return 'rate_limited';
  if (status === 401 || status === 403 || type === 'authentication_error' || type === 'permission_error') return 'auth_error';
  if (status === 413 || type === 'request_too_large') return 'request_too_large';
  if (/prompt is too long/i.test(message)) return 'prompt_too_long';
  if (status === 400 || type === 'invalid_request_error') return 'bad_request';
  return 'api_error';
}

const HINTS: Partial<Record<ModelErrorCode, string>> = {
  auth_error: ' (check ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN)',
  connection_error: ' (check ANTHROPIC_BASE_URL and the network)',
};

/** The API's own words: `{type: 'error', error: {type, message}}` (the SDK stringifies the whole body). */
function apiMessage(err: APIError): string {
  const body = err.error as { error?: { message?: unknown }; message?: unknown } | undefined;
  const inner = body?.error?.message ?? body?.message;
  return typeof inner === 'string' ? inner : err.message.replace(/^\d{3}\s+/, '');
}

export function classifyModelError(err: unknown): ModelError {
  if (err instanceof APIUserAbortError) return { code: 'aborted', message: 'the request was aborted' };
  if (err instanceof APIConnectionTimeoutError) return { code: 'timeout', message: 'the model API did not answer in time' };
  if (err instanceof APIConnectionError) return { code: 'connection_error', message: `cannot reach the model API${HINTS.connection_error}` };
  if (err instanceof APIError) {
    const status = typeof err.status === 'number' ? err.status : undefined;
    const message = clip(`${status ?? ''} ${apiMessage(err)}`.trim());
    const code = fromStatus(status, err.type, message);
    const out: ModelError = { code, message: message + (HINTS[code] ?? '') };
    if (status !== undefined) out.status = status;
    if (err.requestID) out.requestId = err.requestID;
    const m = /prompt is too long:\s*(\d+)\s*tokens\s*>\s*(\d+)/i.exec(message);
    if (m) out.promptTokens = { actual: Number(m[1]), max: Number(m[2]) };
    return out;
  }
  return { code: 'model_error', message: clip(err instanceof Error ? err.message : String(err)) };
}
