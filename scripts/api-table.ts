/** The API table of docs/api.md, made from the endpoint table (src/api/endpoints.ts). */
import { ENDPOINTS, type Endpoint } from '../src/api/endpoints.js';

export const START = '<!-- api:start (generated from src/api/endpoints.ts by `npm run docs:api`: edit there) -->';
export const END = '<!-- api:end -->';

const answers: Record<Endpoint['reply']['kind'], string> = { json: 'JSON', bytes: 'bytes', stream: 'byte stream', ndjson: 'NDJSON', sse: 'server-sent events' };

export function apiTable(): string {
  const rows = (Object.entries(ENDPOINTS) as [string, Endpoint][]).map(([name, e]) => {
    const status = e.reply.kind === 'json' && e.reply.status !== undefined && e.reply.status !== 200 ? ` (${e.reply.status})` : '';
    return `| \`${e.method}\` | \`${e.path}\` | ${answers[e.reply.kind]}${status} | ${e.doc} | \`${name}\` |`;
  });
  return ['| method | path | answer | what it does | name |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** Markdown text with the marked block replaced by the current table; throws when the markers are missing. */
export function withApiTable(doc: string): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/api.md has no API block: put ${START} and ${END} where the table goes`);
  return `${doc.slice(0, start + START.length)}\n${apiTable()}\n${doc.slice(end)}`;
}
