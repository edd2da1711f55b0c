/**
 * Scope from the words alone: a sentence naming something concrete about a codebase (a path, a
 * file, a backticked identifier, a port, a URL, a branch, a flag, a tool or service) is about the
 * project; one without is about how the person works, and follows them everywhere.
 */

const EXTENSIONS =
  'ts|tsx|js|jsx|mjs|cjs|json|jsonc|ya?ml|toml|md|mdx|py|go|rs|java|kt|rb|sh|bash|zsh|sql|lock|css|scss|less|html|txt|ini|cfg|conf|xml|proto|tf|vue|svelte|swift|c|h|cc|cpp|hpp|cs|php|ex|exs|erl|env|gradle|properties|csv|graphql|gql|prisma';

/** Slash pairs that are words, not paths ("and/or"). */
const NOT_PATHS = new Set(['and/or', 'either/or', 'i/o', 'w/o', 'w/', 'y/n', 'yes/no', 'on/off', 'read/write', 'input/output', 'client/server', 'true/false', 'he/she', 's/he', 'his/her', 'pros/cons', 'n/a', 'tcp/ip', 'ui/ux']);
const SLASHED = /[\w@.~-]*\/[\w@./-]*/g;

const TOOLS = [
  'npm|pnpm|yarn|bun|deno|npx|pnpx|nvm|volta|corepack|node|nodejs',
  'jest|vitest|mocha|ava|pytest|unittest|rspec|junit|playwright|cypress|puppeteer|selenium|storybook',
  'cargo|rustc|clippy|gradle|maven|mvn|makefile|cmake|bazel|pip|pipenv|poetry|uv|conda|virtualenv|venv|bundler|composer',
  'docker|dockerfile|docker-compose|podman|kubernetes|k8s|kubectl|helm|terraform|pulumi|ansible|nomad|systemd|pm2|supervisord',
  'postgres|postgresql|psql|mysql|mariadb|sqlite|redis|memcached|mongo|mongodb|kafka|rabbitmq|nats|elasticsearch|opensearch|clickhouse|dynamodb|supabase|firebase|s3|minio',
  'cron|crontab|nginx|caddy|traefik|haproxy|cloudflare|vercel|netlify|heroku|railway|aws|gcp|azure|lambda|ec2|ecs|eks|gke',
  'github|github actions|github pages|gitlab|bitbucket|circleci|jenkins|buildkite|travis|ci|cd|dependabot|renovate|husky|lint-staged|changesets|semantic-release',
  'eslint|prettier|biome|ruff|flake8|mypy|pyright|rubocop|gofmt|golangci-lint|tsc|tsx|ts-node|nodemon|swc|babel|webpack|vite|esbuild|rollup|parcel|turbo|turborepo|nx|lerna',
  'react|preact|vue|nuxt|svelte|sveltekit|angular|nextjs|remix|astro|django|flask|fastapi|rails|laravel|expressjs|fastify|nestjs|koa|hono',
  'prisma|drizzle|typeorm|sequelize|knex|sqlalchemy|alembic|graphql|grpc|protobuf|trpc|openapi|swagger|zod|tailwind|sentry|datadog|grafana|prometheus|stripe|auth0',
  'dotenv',
].join('|');

/** Names something only a codebase has: enough to make a statement a project fact. */
const CONCRETE: readonly RegExp[] = [
  new RegExp(String.raw`\b[\w-]+\.(?:${EXTENSIONS})\b`, 'i'),
  /(?:^|\s)\.[a-z][\w.-]+/i,
  /\b(?:Dockerfile|Makefile|Procfile|Justfile|Gemfile|Rakefile|Taskfile)\b/,
  /`[^`\s][^`]*`/,
  /\bport\s+\d{2,5}\b|\blocalhost\b|\b[a-z][\w.-]*:\d{2,5}\b/i,
  /\bhttps?:\/\/\S+|\b[\w-]+\.(?:io|com|dev|app|net|org|sh|cloud|co|ai|run)\b/i,
  /\b(?:main|master|develop|trunk|release|default|feature)\s+branch(?:es)?\b|\bbranch(?:es)?\s+(?:named\s+|called\s+)?[`'"]?[\w./-]*[/-][\w./-]*|\b(?:push|pushing|merge|merging|commit|committing|rebase|rebasing|deploy|deploying)\w*\s+(?:\w+\s+)?(?:to|into|onto|on|from|off)\s+(?:the\s+)?(?:main|master|develop|trunk)\b/i,
  /(?:^|\s)--?[a-z][\w-]*/,
  /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/,
  /\bv?\d+\.\d+(?:\.\d+)?\b|\b(?:node|python|postgres|postgresql|java|go|ruby|php|react|next|vue|angular|django|rails|mysql|redis)\s+\d+\b/i,
  new RegExp(String.raw`\b(?:${TOOLS})\b`, 'i'),
  // Product and library names written in CamelCase (LaunchDarkly, PostHog), protocols in capitals.
  // Languages and household names are CamelCase too, and say nothing about one project.
  /\b(?!(?:JavaScript|TypeScript|CoffeeScript|PowerShell|YouTube|ChatGPT|OpenAI|LinkedIn|iPhone|iPad|iOS|macOS|WhatsApp)\b)(?:[A-Z][a-z]+[A-Z][A-Za-z]*|[a-z]+[A-Z][A-Za-z]+)\b/,
  /\b(?:REST|SOAP|RPC|SSE|JWT|OAuth|SAML|SSO|CORS|ORM|CDN|TLS|HTTP\/2|WebSockets?)\b/,
];

/**
 * Points at the project without naming anything in it: enough for scope, not for a fact. A "we"
 * rule is the team's convention, so it belongs to the project too.
 */
const CONTEXT =
  /^we\b|\bwe\s+(?:always|never|use|don't|do not)\b|\b(?:this|the|our|in the)\s+(?:repo|repository|project|codebase|code base|monorepo|service|app|application|workspace|package|backend|frontend|api|server|database|db|cluster|pipeline|gateway|proxy|worker|workers|queue|scheduler|cache)\b|\bin here\b|\bhere\s*$|\b(?:staging|production|prod|deploy|deploys|deployed|deploying|deployment|migrations?|monorepo|workspaces?|schema|feature flags?)\b/i;

/** Says something is about wherever the person works, whatever else it names. */
const EVERYWHERE = /\b(?:in (?:every|all|any) (?:of my |my |our )?(?:projects?|repos?|repositories|codebases?)|across (?:all )?(?:projects|repos)|everywhere|in general|regardless of (?:the )?project)\b/i;

function hasPath(text: string): boolean {
  if (!text.includes('/')) return false;
  SLASHED.lastIndex = 0;
  for (let m = SLASHED.exec(text); m !== null; m = SLASHED.exec(text)) {
    const token = m[0].toLowerCase();
    if (token.length === 0) {
      SLASHED.lastIndex++;
      continue;
    }
    if (/^\d+\/\d+/.test(token) || NOT_PATHS.has(token) || !/[a-z]/.test(token)) continue;
    // Two plain words ("frontend/backend") read as alternatives unless a part looks like a file.
    if (/^[a-z]+\/[a-z]+$/.test(token) && !/^(?:src|lib|app|apps|pkg|packages|test|tests|docs|config|scripts|bin|cmd|internal|public|dist|build)\//.test(token)) continue;
    return true;
  }
  return false;
}

/** The markers as two alternations (by case sensitivity): two scans instead of fourteen. */
const join = (ignoreCase: boolean): RegExp =>
  new RegExp(CONCRETE.filter((re) => re.ignoreCase === ignoreCase).map((re) => `(?:${re.source})`).join('|'), ignoreCase ? 'i' : '');
const CONCRETE_I = join(true);
const CONCRETE_CASED = join(false);

export function namesProjectThing(text: string): boolean {
  return CONCRETE_CASED.test(text) || CONCRETE_I.test(text) || hasPath(text);
}

export function scopeOf(text: string): 'user' | 'project' {
  if (EVERYWHERE.test(text)) return 'user';
  return CONTEXT.test(text) || namesProjectThing(text) ? 'project' : 'user';
}
