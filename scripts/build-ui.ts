/**
 * Bundles the dashboard's front end (src/ui/web) into dist/ui: index.html naming the hashed script
 * and stylesheet under %BASE%/assets/ (served with a long cache; the page itself is not cached). The
 * daemon puts the dashboard's private path prefix for %BASE% (src/ui/assets.ts). Nothing is fetched
 * from elsewhere at run time: Preact, the router and the ANSI library are in the bundle.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';

const NAMES = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];

/** The 256-colour palette as classes (anser's `ansi-palette-N`), the first 16 following the theme's variables. */
function paletteCss(): string {
  const hex = (r: number, g: number, b: number) => `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
  const steps = [0, 95, 135, 175, 215, 255];
  const rules: string[] = [];
  for (let i = 0; i < 256; i++) {
    let colour: string;
    if (i < 16) colour = `var(--ansi-${i >= 8 ? 'bright-' : ''}${NAMES[i % 8]})`;
    else if (i < 232) colour = hex(steps[Math.floor((i - 16) / 36)] ?? 0, steps[Math.floor((i - 16) / 6) % 6] ?? 0, steps[(i - 16) % 6] ?? 0);
    else colour = hex(8 + (i - 232) * 10, 8 + (i - 232) * 10, 8 + (i - 232) * 10);
    rules.push(`.ansi-palette-${i}-fg{color:${colour}}.ansi-palette-${i}-bg{background-color:${colour}}`);
  }
  for (const bright of ['', 'bright-']) {
    for (const n of NAMES)
      rules.push(`.ansi-${bright}${n}-fg{color:var(--ansi-${bright}${n})}.ansi-${bright}${n}-bg{background-color:var(--ansi-${bright}${n})}`);
  }
  return rules.join('\n');
}

const palette: Plugin = {
  name: 'ansi-palette',
  setup(b) {
    b.onResolve({ filter: /^ansi-palette\.css$/ }, (a) => ({ path: a.path, namespace: 'palette' }));
    b.onLoad({ filter: /.*/, namespace: 'palette' }, () => ({ contents: paletteCss(), loader: 'css' }));
  },
};

export async function buildUi(root: string, outdir: string): Promise<void> {
  const assets = resolve(outdir, 'assets');
  mkdirSync(assets, { recursive: true });
  const r = await build({
    entryPoints: { app: resolve(root, 'src/ui/web/main.tsx') },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: ['es2022', 'chrome111', 'firefox111', 'safari16.4'],
    minify: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: assets,
    entryNames: '[name]-[hash]',
    metafile: true,
    legalComments: 'linked',
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [palette],
    logLevel: 'warning',
  });
  const outputs = Object.keys(r.metafile.outputs).map((p) => basename(p));
  const js = outputs.find((f) => f.endsWith('.js'));
  const css = outputs.find((f) => f.endsWith('.css'));
  if (!js || !css) throw new Error(`the dashboard bundle is incomplete: ${outputs.join(', ')}`);
  writeFileSync(
    resolve(outdir, 'index.html'),
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>nightshift</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="%BASE%/assets/${css}">
<script type="module" src="%BASE%/assets/${js}"></script>
</head>
<body>
<div id="app"></div>
<noscript>The nightshift dashboard needs JavaScript; the same is available from the <code>nightshift</code> CLI.</noscript>
</body>
</html>
`,
  );
}
