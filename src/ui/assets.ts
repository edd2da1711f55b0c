/** The front end's files (dist/ui, bundled at build time), held in memory: a few hundred KB. */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { isErrno } from '../errors.js';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export class Assets {
  private constructor(
    private readonly index: Buffer | null,
    /** `/assets/<name>-<hash>.<ext>` → its bytes and type. */
    private readonly files: Map<string, { data: Buffer; type: string }>,
  ) {}

  /**
   * Reads the bundle; a missing one (not built) makes every page say how to build it. The page names
   * its files under `%BASE%` (scripts/build-ui.ts), which becomes the dashboard's private prefix.
   */
  static load(dir: string, base: string): Assets {
    const files = new Map<string, { data: Buffer; type: string }>();
    let index: Buffer | null = null;
    try {
      index = Buffer.from(readFileSync(join(dir, 'index.html'), 'utf8').replaceAll('%BASE%', base));
      for (const name of readdirSync(join(dir, 'assets'))) {
        const type = TYPES[extname(name)];
        if (type) files.set(`/assets/${name}`, { data: readFileSync(join(dir, 'assets', name)), type });
      }
    } catch (err) {
      if (!isErrno(err, 'ENOENT')) throw err;
    }
    return new Assets(index, files);
  }

  /** A hashed file: cached for good (its name changes with its content). False when there is none by that path. */
  file(pathname: string, res: ServerResponse): boolean {
    const f = this.files.get(pathname);
    if (!f) return false;
    res.writeHead(200, { 'content-type': f.type, 'content-length': f.data.length, 'cache-control': 'public, max-age=31536000, immutable' });
    res.end(f.data);
    return true;
  }

  /** The app's page, for every route of the front end; asked again each time (it names the current bundle). */
  page(res: ServerResponse): void {
    const body = this.index ?? Buffer.from('the dashboard was not built: run `npm run build`\n');
    res.writeHead(this.index ? 200 : 503, {
      'content-type': this.index ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8',
      'content-length': body.length,
      'cache-control': 'no-cache',
    });
    res.end(body);
  }
}
