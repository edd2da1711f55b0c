/**
 * Builds dist/ with esbuild; typechecking is `npm run typecheck`. Two bundles:
 *
 * - dist/cli.js, the binary: src/cli.ts and the fast path of the hot commands (run, output, wait,
 *   ingest, hooks) in one CommonJS file. One file instead of hundreds of modules, and CommonJS rather than
 *   an ES module (Node's ES loader costs ~5 ms more to start), is what keeps `nightshift run` near
 *   Node's own start-up.
 * - dist/main.mjs and its chunks: the full CLI (commander), the daemon, the agent run and the MCP
 *   server, split so that each command loads what it uses. dist/package.json makes `.js` CommonJS.
 *
 * - dist/ui/: the web dashboard's front end (scripts/build-ui.ts).
 *
 * The full CLI carries zod and commander in its bundle (see BUNDLED); other packages load from
 * node_modules.
 */
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import { buildUi } from './build-ui.js';

const root = resolve(import.meta.dirname, '..');
const outdir = resolve(root, 'dist');
const common: BuildOptions = { bundle: true, platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' };
/**
 * Packages the full CLI takes into its bundle: the two every command loads, whose dozens of files
 * cost the ES loader more than their code (~30 ms of a command's start-up). The rest stay in
 * node_modules: pino's transports load files of their own, and the SDKs are loaded only by the
 * commands that use them.
 */
const BUNDLED = ['zod', 'commander'];

rmSync(outdir, { recursive: true, force: true });
await Promise.all([
  build({
    ...common,
    entryPoints: [resolve(root, 'src/cli.ts')],
    outfile: resolve(outdir, 'cli.js'),
    format: 'cjs',
    packages: 'external',
    // paths.ts finds the installation from import.meta.url, which CommonJS does not have.
    define: { 'import.meta.url': '__importMetaUrl' },
    banner: { js: 'var __importMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
    plugins: [
      {
        name: 'full-cli-apart',
        setup(b) {
          // The full CLI stays its own bundle, loaded only when the fast path does not answer.
          b.onResolve({ filter: /^\.\/cli\/main\.js$/ }, () => ({ path: './main.mjs', external: true }));
        },
      },
    ],
  }),
  build({
    ...common,
    // The ranking thread's entry (memory/extract/rank-thread.ts), beside the chunks it shares.
    entryPoints: { main: resolve(root, 'src/cli/main.ts'), 'rank-worker': resolve(root, 'src/memory/extract/rank-worker.ts') },
    outdir,
    format: 'esm',
    splitting: true,
    plugins: [
      {
        name: 'packages-apart',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (a) => {
            const name = a.path.startsWith('@') ? a.path.split('/').slice(0, 2).join('/') : (a.path.split('/')[0] ?? a.path);
            return BUNDLED.includes(name) ? undefined : { path: a.path, external: true };
          });
        },
      },
    ],
    // Every module lands next to dist/cli.js: paths.ts finds the installation from there.
    chunkNames: '[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    // commander is CommonJS: its require() of Node's modules needs a real require in an ES module.
    banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
  }),
  buildUi(root, resolve(outdir, 'ui')),
]);
writeFileSync(resolve(outdir, 'package.json'), '{ "type": "commonjs" }\n');
chmodSync(resolve(outdir, 'cli.js'), 0o755);
