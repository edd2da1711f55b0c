/**
 * Common tools by what they are for. Two statements that name tools of one category about one
 * subject speak of the same thing ("uses pnpm" and "package manager: yarn" are one slot with two
 * values). A small table on purpose: anything not in it is still a term, just without a category.
 */

const TABLE: Record<string, string> = {
  'package manager': 'npm pnpm yarn bun pip pipenv poetry uv conda cargo bundler composer gradle maven mvn hex mix',
  language: 'typescript javascript python ruby go golang rust elixir erlang java kotlin swift php scala clojure haskell c# csharp dart lua',
  runtime: 'node nodejs deno bun',
  framework:
    'react preact vue nuxt svelte sveltekit angular next nextjs remix astro django flask fastapi rails laravel express fastify nestjs koa hono phoenix spring tauri electron flutter',
  database: 'postgres postgresql mysql mariadb sqlite redis mongo mongodb dynamodb supabase firebase clickhouse elasticsearch cassandra',
  'deploy target': 'vercel netlify render heroku railway fly fly.io cloudflare aws gcp azure kubernetes k8s docker ecs lambda',
  'test framework': 'jest vitest mocha ava pytest rspec junit exunit playwright cypress',
  linter: 'eslint ruff flake8 pylint rubocop credo clippy golangci-lint biome',
  formatter: 'prettier black gofmt rustfmt',
  'type checker': 'mypy pyright dialyzer tsc',
  ci: 'github-actions circleci jenkins buildkite travis gitlab-ci',
  'issue tracker': 'jira linear trello asana',
  orm: 'prisma drizzle typeorm sequelize knex sqlalchemy ecto activerecord',
  css: 'tailwind tailwindcss bootstrap sass scss',
  bundler: 'vite webpack esbuild rollup parcel turbopack',
  chain: 'solana ethereum bitcoin',
};

/** Tool names that are also everyday English words: they count only when written with a capital. */
export const AMBIGUOUS_TOOLS: ReadonlySet<string> = new Set(
  'render go next express fly mix hex linear node deno bun rust ruby elixir swift dart spring black'.split(' '),
);

export const TOOL_CATEGORY: ReadonlyMap<string, string> = new Map(
  Object.entries(TABLE).flatMap(([category, tools]) => tools.split(/\s+/).map((t) => [t, category] as const)),
);
