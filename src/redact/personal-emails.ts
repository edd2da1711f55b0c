/**
 * Email addresses, and not what only looks like one: a repository's `git@host:org/repo` and
 * `ssh://git@host/…`, `user@host` after ssh/scp/rsync, a shell prompt `me@box:~$`, `logo@2x.png`,
 * `pkg@1.2.3`, `@scope/pkg`, decorators, the reserved documentation domains (example.com, .test,
 * .invalid, .localhost), and the no-reply address of a tool or a bot (it names no one).
 */
import type { PersonalHit } from './personal-kinds.js';

const EMAIL = /(?<![\w.+%@-])[A-Za-z0-9](?:[\w.+%-]*[\w+%-])?@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![\w@-]|\.[A-Za-z0-9])/g;

/** Extensions that are no top-level domain: `icon@2x.png`, `worker@main.js`. */
const FILE_TLD = new Set([
  'png',
  'jpg',
  'jpeg',
  'gif',
  'svg',
  'webp',
  'ico',
  'js',
  'mjs',
  'cjs',
  'ts',
  'tsx',
  'jsx',
  'json',
  'css',
  'scss',
  'html',
  'txt',
  'lock',
  'yaml',
  'yml',
  'toml',
  'map',
  'wasm',
  'log',
  'vue',
  'svelte',
]);
const RESERVED = /(?:^|\.)(?:example\.(?:com|net|org)|example|test|invalid|localhost|local)$/i;
const NO_REPLY = /^(?:no-?reply|do-?not-?reply|mailer-daemon|postmaster|bounces?)$|\[bot\]|^notifications$/i;
/** `ssh deploy@prod.acme.io`, `rsync -a dist/ web@host.io:` — a login on a host, not a mailbox. */
const REMOTE_SHELL = /\b(?:ssh|scp|sftp|rsync|mosh|ssh-copy-id|autossh)\s+(?<args>[^\n]*)$/g;
/** What may stand between the command and the login: options, their values, paths. */
const ARG = /^(?:-\S*|[\w.:/~=-]*[\d/.~][\w.:/~=-]*)$/;

function afterRemoteShell(before: string): boolean {
  // The command nearest the address: only its own arguments may stand between them.
  const args = [...before.matchAll(REMOTE_SHELL)].pop()?.groups?.args;
  return args !== undefined && args.split(/\s+/).every((a) => a === '' || ARG.test(a));
}

function lookAlike(text: string, start: number, end: number, address: string): boolean {
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (FILE_TLD.has(domain.slice(domain.lastIndexOf('.') + 1).toLowerCase())) return true;
  if (RESERVED.test(domain) || NO_REPLY.test(local)) return true;
  // A repository or a host path: `git@github.com:org/repo`, `me@box:~$`.
  if (/^:[^\s]/.test(text.slice(end, end + 2))) return true;
  // The user part of a URL: `ssh://git@host/…`, `https://me@host/…`.
  if (text.slice(Math.max(0, start - 3), start).endsWith('//')) return true;
  return afterRemoteShell(text.slice(Math.max(0, start - 120), start));
}

export function emailSpans(text: string): PersonalHit[] {
  if (!text.includes('@')) return [];
  const spans: PersonalHit[] = [];
  for (const m of text.matchAll(EMAIL)) {
    const start = m.index;
    const end = start + m[0].length;
    if (!lookAlike(text, start, end, m[0])) spans.push({ kind: 'email', start, end });
  }
  return spans;
}
