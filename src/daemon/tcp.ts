import { randomBytes } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { AppError, isErrno } from '../errors.js';

/** Reads the bearer token, creating it (0600) on first use. A token file others can read is refused. */
export function loadToken(file: string): string {
  try {
    const st = statSync(file);
    if ((st.mode & 0o077) !== 0) {
      throw new AppError('config_invalid', `token file ${file} is readable by others; run \`chmod 600 ${file}\``);
    }
    const token = readFileSync(file, 'utf8').trim();
    if (token.length < 16) throw new AppError('config_invalid', `token file ${file} holds fewer than 16 characters`);
    return token;
  } catch (err) {
    if (!isErrno(err, 'ENOENT')) throw err;
  }
  const token = randomBytes(32).toString('base64url');
  writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
  return token;
}

export async function listenTcp(
  cfg: { host: string; port: number },
  tokenFile: string,
  make: (token: string) => Server,
): Promise<{ server: Server; address: string }> {
  const server = make(loadToken(tokenFile));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'EADDRINUSE' ? 'the port is in use' : err.message;
      reject(new AppError('config_invalid', `cannot listen on ${cfg.host}:${cfg.port} (config "tcp"): ${why}`, err));
    });
    server.listen(cfg.port, cfg.host, () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : cfg.port;
  const host = cfg.host.includes(':') ? `[${cfg.host}]` : cfg.host;
  return { server, address: `http://${host}:${port}` };
}
