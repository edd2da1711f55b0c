/** Errors are values: a stable code for scripts, a message a person can act on. */
export type ErrorCode =
  | 'bad_request'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'headers_too_large'
  | 'unauthorized'
  | 'unsupported_media_type'
  | 'method_not_allowed'
  | 'invalid_cwd'
  | 'command_not_found'
  | 'spawn_failed'
  | 'stdin_closed'
  | 'stdin_full'
  | 'timeout'
  | 'daemon_unavailable'
  | 'connection_lost'
  | 'daemon_running'
  | 'state_corrupt'
  | 'config_invalid'
  | 'model_unavailable'
  | 'disk_full'
  | 'internal';

const httpStatus: Record<ErrorCode, number> = {
  bad_request: 400,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  headers_too_large: 431,
  unauthorized: 401,
  unsupported_media_type: 415,
  method_not_allowed: 405,
  invalid_cwd: 400,
  command_not_found: 400,
  spawn_failed: 500,
  stdin_closed: 409,
  stdin_full: 409,
  timeout: 408,
  daemon_unavailable: 503,
  connection_lost: 503,
  daemon_running: 409,
  state_corrupt: 500,
  config_invalid: 400,
  model_unavailable: 503,
  disk_full: 507,
  internal: 500,
};

export class AppError extends Error {
  readonly code: ErrorCode;
  override readonly cause?: unknown;

  constructor(code: ErrorCode, message: string, cause?: unknown) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.cause = cause;
  }

  get status(): number {
    return httpStatus[this.code];
  }

  toJSON(): { code: ErrorCode; message: string } {
    return { code: this.code, message: this.message };
  }
}

export function isErrno(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as NodeJS.ErrnoException).code === code;
}

/** errno codes meaning the filesystem (or the user's quota on it) has no room left. */
const NO_ROOM = new Set(['ENOSPC', 'EDQUOT']);

/**
 * A write to `path` that failed for lack of room, as the error the caller passes on (`disk_full`,
 * naming the errno and the file); any other failure comes back as it was.
 */
export function diskFullError(err: unknown, path: string): unknown {
  if (err instanceof AppError || typeof err !== 'object' || err === null) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === undefined || !NO_ROOM.has(code)) return err;
  const what = code === 'EDQUOT' ? 'disk quota exceeded' : 'no space left on device';
  return new AppError('disk_full', `${what} (${code}) writing ${path}: free some space on that filesystem`, err);
}
