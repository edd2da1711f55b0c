/**
 * A scripted git repository for memories tied to code: files, config keys (TOML, YAML,
 * JSON, .env), scripts and dependencies, thirty statements a person makes about them, and ten
 * changes to the things ten of them name (five changed, five gone). Shared by the CLI test and the
 * bench.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const PACKAGE = {
  name: 'shop',
  private: true,
  scripts: { test: 'vitest run', 'test:e2e': 'playwright test', 'lint:fix': 'eslint --fix .', 'db:migrate': 'prisma migrate deploy' },
  dependencies: { zod: '^3.25.0', express: '^4.19.2', pino: '^9.4.0', dayjs: '^1.11.13', ioredis: '^5.4.1', '@tanstack/react-query': '^5.59.0' },
  devDependencies: { vitest: '^2.1.0', '@playwright/test': '^1.48.0', prisma: '^5.20.0' },
};

const FILES: Record<string, string> = {
  'config/server.toml': '[server]\nport = 8080\nrequest_timeout = 30\nmax_connections = 200\n\n[cors]\nallowed_origin = "https://shop.example.com"\n',
  'config/db.yaml': 'database:\n  host: db.internal\n  poolSize: 10\n  replica_host: replica.internal\n',
  '.env.example': 'SMTP_HOST=smtp.example.com\nREDIS_URL=redis://localhost:6379\n',
  'tsconfig.json': '{\n  // the compiler settings\n  "compilerOptions": { "strict": true, "target": "ES2022" }\n}\n',
  'src/routes.ts': "export const routes = ['/', '/cart'];\n",
  'src/db/schema.ts': 'export const tables = ["orders", "customers"];\n',
  'src/auth/session.ts': 'export const cookieName = "sid";\n',
  'scripts/seed.ts': 'console.log("seeding");\n',
  'docs/ARCHITECTURE.md': '# Architecture\n\nThe web tier talks to the worker tier through Redis.\n',
  'src/jobs/mailer.ts': 'export function send() {}\n',
  'src/cache/redis.ts': 'export const ttl = 60;\n',
  'migrations/001_init.sql': 'create table orders (id int);\n',
  'src/payments/checkout.ts': 'export function checkout() {}\n',
  'src/search/indexer.ts': 'export function index() {}\n',
};

/** One statement and, for ten of them, what happens to the thing it names. */
export interface Claim {
  say: string;
  change?: { kind: 'changed' | 'gone'; apply: (root: string) => void };
}

const edit = (file: string, from: string | RegExp, to: string) => (root: string) => {
  const path = join(root, file);
  writeFileSync(path, readFileSync(path, 'utf8').replace(from, to));
};
const remove = (file: string) => (root: string) => rmSync(join(root, file));
type Manifest = Record<'scripts' | 'dependencies', Record<string, string>>;
/** A change to package.json as the earlier changes left it. */
const pkg = (change: (p: Manifest) => void) => (root: string) => {
  const path = join(root, 'package.json');
  const p = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
  change(p);
  writeFileSync(path, `${JSON.stringify(p, null, 2)}\n`);
};

export const CLAIMS: Claim[] = [
  // Files
  { say: 'The HTTP routes are all registered in src/routes.ts.', change: { kind: 'changed', apply: edit('src/routes.ts', "'/cart'", "'/cart', '/wishlist'") } },
  { say: 'The database schema is defined in src/db/schema.ts.' },
  { say: 'Session cookies are handled in src/auth/session.ts.', change: { kind: 'gone', apply: remove('src/auth/session.ts') } },
  { say: 'Seed data for local development comes from scripts/seed.ts.' },
  { say: 'docs/ARCHITECTURE.md explains how the services talk to each other.' },
  { say: 'Outgoing emails must go through src/jobs/mailer.ts.' },
  { say: 'The cache wrapper is src/cache/redis.ts.' },
  { say: 'The first migration is migrations/001_init.sql.' },
  { say: 'Checkout logic lives in src/payments/checkout.ts.', change: { kind: 'gone', apply: remove('src/payments/checkout.ts') } },
  { say: 'The search indexer is src/search/indexer.ts.' },
  // Config keys
  { say: 'The API server listens on port 8080.', change: { kind: 'changed', apply: edit('config/server.toml', 'port = 8080', 'port = 9090') } },
  { say: 'The request_timeout is 30 seconds.' },
  { say: 'max_connections is set to 200 for the API server.' },
  { say: 'The database host is db.internal.', change: { kind: 'changed', apply: edit('config/db.yaml', 'host: db.internal', 'host: db2.internal') } },
  { say: 'The connection pool size is database.poolSize in config/db.yaml.' },
  { say: 'Reads go to replica_host in the database config.', change: { kind: 'gone', apply: edit('config/db.yaml', /\n {2}replica_host: .*\n/, '\n') } },
  { say: 'Always read the mail server from SMTP_HOST in the environment file.' },
  { say: 'The worker must find its queue through REDIS_URL.' },
  { say: 'Keep compilerOptions.strict turned on in TypeScript.' },
  { say: 'CORS must allow only the allowed_origin from the server config.' },
  // Dependencies and scripts
  { say: 'We validate all input with zod.', change: { kind: 'changed', apply: pkg((p) => (p.dependencies['zod'] = '^4.1.0')) } },
  { say: 'The web server is built on Express.' },
  { say: 'Logs are written with pino.' },
  { say: 'Dates are formatted with dayjs.', change: { kind: 'gone', apply: pkg((p) => delete p.dependencies['dayjs']) } },
  { say: 'The Redis client is ioredis.' },
  { say: 'Server state in the UI is kept with @tanstack/react-query.' },
  { say: 'Unit tests are written with vitest.' },
  {
    say: 'Run npm run test:e2e before every release.',
    change: { kind: 'changed', apply: pkg((p) => (p.scripts['test:e2e'] = 'playwright test --project=chromium')) },
  },
  { say: 'npm run lint:fix fixes the formatting.' },
  { say: 'Database changes must be applied with the db:migrate script.', change: { kind: 'gone', apply: pkg((p) => delete p.scripts['db:migrate']) } },
];

function git(root: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.email=test@example.com', '-c', 'user.name=test', '-c', 'commit.gpgsign=false', ...args], { cwd: root, stdio: 'ignore' });
}

/** How a person says a claim in a session (a bare statement of fact often ranks below what is kept). */
export const spoken = (c: Claim): string => `Please keep in mind for future sessions in this repo: ${c.say.charAt(0).toLowerCase()}${c.say.slice(1)}`;

/** Whether a memory's text is the claim's (as the extractor tidied it). */
export const isClaim = (content: string, c: Claim): boolean => content.toLowerCase().includes(c.say.toLowerCase().replace(/\.$/, ''));

/** Writes the repository at `root` (a new directory) and commits it. */
export function writeRepo(root: string): void {
  mkdirSync(root, { recursive: true });
  git(root, 'init', '-q');
  writeFileSync(join(root, 'package.json'), `${JSON.stringify(PACKAGE, null, 2)}\n`);
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'the shop');
}

/** Applies the ten changes and commits them; answers the claims' indexes by what happened. */
export function changeRepo(root: string): { changed: number[]; gone: number[] } {
  const changed: number[] = [];
  const gone: number[] = [];
  CLAIMS.forEach((c, i) => {
    if (c.change === undefined) return;
    c.change.apply(root);
    (c.change.kind === 'gone' ? gone : changed).push(i);
  });
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'ten changes');
  return { changed, gone };
}
