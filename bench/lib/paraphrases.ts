/**
 * Facts written in independent phrasings (different words and structure, the same meaning), and
 * near-miss pairs (one phrasing, one value changed: another service or part, or the opposite
 * polarity). Hand-written families, filled with generated services and values.
 */

export interface BenchPair {
  kind: 'paraphrase' | 'other-subject' | 'polarity';
  a: string;
  b: string;
}

type Vars = Record<string, string>;
interface Family {
  phrasings: ((v: Vars) => string)[];
  /** Changes one value so the statement is about something else. */
  otherSubject: (v: Vars) => Vars;
  /** The same statement with the opposite polarity, when the family has one. */
  flip?: (text: string) => string | undefined;
}

const SERVICES = [
  'acme-billing',
  'acme-ledger',
  'orbit-search',
  'orbit-mailer',
  'nova-gateway',
  'nova-reports',
  'atlas-uploads',
  'atlas-auth',
  'zen-catalog',
  'zen-checkout',
];
const PMS = ['pnpm', 'yarn', 'npm', 'bun'];
const HOSTS = ['Fly.io', 'Render', 'Vercel', 'Netlify', 'Railway'];
const DBS = ['Postgres', 'SQLite', 'MySQL', 'MongoDB', 'Redis'];
const CMDS = ['make lint', 'npm test', 'cargo clippy', 'mix credo', 'ruff check'];
const BRANCHES = ['main', 'release', 'develop'];
const PARTS = ['frontend', 'backend'];
const ENVS = ['staging', 'production'];
const REGIONS = ['eu', 'us'];
const LANGS = ['TypeScript', 'Go', 'Rust', 'Elixir', 'Python'];
const FORMATTERS = ['Prettier', 'gofmt', 'rustfmt', 'Black'];

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** Another service with the same number: "acme-billing3x" → "orbit-mailer3x". */
const otherService = (v: Vars): Vars => {
  const [, base = '', rest = ''] = /^([a-z]+-[a-z]+)(.*)$/.exec(v.svc ?? '') ?? [];
  return { ...v, svc: `${SERVICES[(SERVICES.indexOf(base) + 3) % SERVICES.length] as string}${rest}` };
};

const FAMILIES: Family[] = [
  {
    phrasings: [
      (v) => `The ${v.svc} repo uses ${v.pm} as its package manager.`,
      (v) => `Package manager for ${v.svc}: ${v.pm}.`,
      (v) => `We install ${v.svc}'s dependencies with ${v.pm}.`,
    ],
    otherSubject: otherService,
  },
  {
    phrasings: [(v) => `${cap(v.svc ?? '')} is deployed on ${v.host}.`, (v) => `Deploys of ${v.svc} go to ${v.host}.`, (v) => `We host ${v.svc} on ${v.host}.`],
    otherSubject: otherService,
  },
  {
    phrasings: [
      (v) => `The ${v.svc} service listens on port ${v.port}.`,
      (v) => `${cap(v.svc ?? '')} serves HTTP on port ${v.port}.`,
      (v) => `Port ${v.port} is where ${v.svc} accepts connections.`,
    ],
    otherSubject: otherService,
  },
  {
    phrasings: [
      (v) => `${cap(v.svc ?? '')} stores its data in ${v.db}.`,
      (v) => `The database behind ${v.svc} is ${v.db}.`,
      (v) => `We keep ${v.svc}'s records in ${v.db}.`,
    ],
    otherSubject: otherService,
  },
  {
    phrasings: [
      (v) => `Run \`${v.cmd}\` before committing to ${v.svc}.`,
      (v) => `Before every commit in ${v.svc}, \`${v.cmd}\` has to pass.`,
      (v) => `\`${v.cmd}\` must succeed prior to any ${v.svc} commit.`,
    ],
    otherSubject: otherService,
  },
  {
    phrasings: [
      (v) => `Never push directly to the ${v.branch} branch of ${v.svc}.`,
      (v) => `Direct pushes to ${v.branch} in ${v.svc} are not allowed.`,
      (v) => `Nobody pushes straight to ${v.svc}'s ${v.branch} branch.`,
    ],
    otherSubject: otherService,
    flip: (t) => (t.startsWith('Never ') ? t.replace(/^Never /, 'Always ') : undefined),
  },
  {
    phrasings: [
      (v) => `Always deploy the ${v.svc} ${v.part} to the ${v.env} cluster in the ${v.region} region.`,
      (v) => `The ${v.svc} ${v.part} ships to ${v.env} in the ${v.region} region.`,
      (v) => `${cap(v.svc ?? '')}'s ${v.part} deploys go to the ${v.region} ${v.env} cluster.`,
    ],
    otherSubject: (v) => ({ ...v, part: v.part === 'frontend' ? 'backend' : 'frontend' }),
  },
  {
    phrasings: [
      (v) => `${cap(v.svc ?? '')} is written in ${v.lang}.`,
      (v) => `The codebase of ${v.svc} is ${v.lang}.`,
      (v) => `We build ${v.svc} with ${v.lang}.`,
    ],
    otherSubject: otherService,
  },
  {
    phrasings: [
      (v) => `Requests to ${v.svc} time out after ${v.secs} seconds.`,
      (v) => `${cap(v.svc ?? '')} has a ${v.secs}-second request timeout.`,
      (v) => `The request timeout of ${v.svc} is ${v.secs} s.`,
    ],
    otherSubject: otherService,
  },
  {
    phrasings: [
      (v) => `Format ${v.svc} code with ${v.fmt}.`,
      (v) => `${cap(v.svc ?? '')} uses ${v.fmt} for formatting.`,
      (v) => `Code style in ${v.svc} is enforced by ${v.fmt}.`,
    ],
    otherSubject: otherService,
    flip: (t) => (t.startsWith('Format ') ? t.replace(/^Format (\S+) code/, 'Never format $1 code') : undefined),
  },
];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** `perFamily` facts of each family: one paraphrase pair and one near-miss pair each. */
export function buildPairs(perFamily: number, seed = 7): BenchPair[] {
  const r = rng(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const out: BenchPair[] = [];
  for (const f of FAMILIES) {
    for (let i = 0; i < perFamily; i++) {
      const v: Vars = {
        svc: `${pick(SERVICES)}${i}`,
        pm: pick(PMS),
        host: pick(HOSTS),
        port: String(3000 + Math.floor(r() * 6000)),
        db: pick(DBS),
        cmd: pick(CMDS),
        branch: pick(BRANCHES),
        part: pick(PARTS),
        env: pick(ENVS),
        region: pick(REGIONS),
        lang: pick(LANGS),
        secs: String(5 + Math.floor(r() * 120)),
        fmt: pick(FORMATTERS),
      };
      const x = Math.floor(r() * f.phrasings.length);
      const y = (x + 1 + Math.floor(r() * (f.phrasings.length - 1))) % f.phrasings.length;
      const px = f.phrasings[x] as (v: Vars) => string;
      const py = f.phrasings[y] as (v: Vars) => string;
      out.push({ kind: 'paraphrase', a: px(v), b: py(v) });
      // Near misses use fresh services, so they never meet the paraphrase pairs.
      const w: Vars = { ...v, svc: `${v.svc}x` };
      const flipped = f.flip?.(px(w));
      if (flipped !== undefined && i % 2 === 1) out.push({ kind: 'polarity', a: px(w), b: flipped });
      else out.push({ kind: 'other-subject', a: px(w), b: px(f.otherSubject(w)) });
    }
  }
  return out;
}
