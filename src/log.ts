import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * JSON lines on stdout for journald; pretty when stdout is a terminal.
 * Task environments and tokens are redacted wherever they might be attached.
 */
export function createLogger(level: string): Logger {
  const options = {
    level,
    base: { pid: process.pid },
    redact: {
      paths: ['env', '*.env', 'token', '*.token', 'authorization', '*.authorization', 'headers.authorization'],
      censor: '[redacted]',
    },
  };
  if (process.stdout.isTTY) {
    return pino({ ...options, transport: { target: 'pino-pretty', options: { colorize: true, destination: 1 } } });
  }
  return pino(options, pino.destination({ dest: 1, sync: true }));
}
