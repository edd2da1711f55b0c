import { z } from 'zod';
import {
  ImportRequest,
  ImportResponse,
  IngestRequest,
  IngestResponse,
  ListMemoriesQuery,
  MemoryListResponse,
  MemoryResponse,
  PromptRecallRequest,
  PromptRecallResponse,
  RecallRequest,
  RecallResponse,
  ReextractRequest,
  ReextractResponse,
  RememberRequest,
  SearchQuery,
  SearchResponse,
  SessionListResponse,
  SessionShowResponse,
} from '../memory.js';
import { EditMemoryRequest, MemoryHistoryResponse, MemorySourcesResponse, ProjectsResponse, SessionListQuery } from '../memory-browse.js';
import { json, memoryId, type EndpointSpec } from '../endpoint.js';

export const MEMORY_ENDPOINTS = {
  remember: {
    doc: 'store a memory',
    body: RememberRequest.describe('remember request'),
    reply: json(MemoryResponse, 201),
  },
  listMemories: {
    doc: "the user's and a project's (or team's) active memories; `archived=1`: archived and superseded; `all=1`: all of them; filters `q` (search, best first), `type`, `scope`, `origin`, `pinned`, `session` (those a session gave); `order=recent`; a page: `offset`, `limit`, with the `total`",
    query: ListMemoriesQuery.describe('query'),
    reply: json(MemoryListResponse),
  },
  importMemories: {
    doc: 'add memories (duplicates are skipped)',
    body: ImportRequest.describe('import request'),
    reply: json(ImportResponse),
  },
  projects: {
    doc: 'every project with memories or sessions: active and archived memories, sessions, last activity; the same for the user and each team',
    reply: json(ProjectsResponse),
  },
  getMemory: { doc: 'one memory', params: memoryId, reply: json(MemoryResponse) },
  forgetMemory: { doc: 'archive a memory (kept, restorable)', params: memoryId, reply: json(MemoryResponse) },
  restoreMemory: {
    doc: 'bring back an archived or superseded memory',
    params: memoryId,
    reply: json(MemoryResponse),
  },
  pinMemory: {
    doc: 'make a memory stable and important, never pruned',
    params: memoryId,
    reply: json(MemoryResponse),
  },
  editMemory: {
    doc: "change a memory's text (secrets masked; the text before kept in its history); an edited memory is never rewritten or merged away by a re-extraction or a dream",
    params: memoryId,
    body: EditMemoryRequest.describe('edit request'),
    reply: json(MemoryResponse),
  },
  memoryHistory: {
    doc: 'what happened to a memory, oldest first: created, reinforced (by session), edited, pinned, forgotten, archived, restored, superseded and merged (both ways, by ingest or by which dream)',
    params: memoryId,
    reply: json(MemoryHistoryResponse),
  },
  memorySources: {
    doc: "where a memory came from: each source session's record and each source message (text, time, line and byte offset in the transcript, the messages around it); a transcript that is gone is an error value of its source",
    params: memoryId,
    reply: json(MemorySourcesResponse),
  },
  recall: {
    doc: 'the memories (and, with a query, past-session excerpts) that matter, within a token budget',
    body: RecallRequest.describe('recall request'),
    reply: json(RecallResponse),
  },
  recallPrompt: {
    doc: 'what matches one prompt of a session well enough and was not given to the session before; marked as given once written whole to the caller',
    body: PromptRecallRequest.describe('prompt recall request'),
    reply: json(PromptRecallResponse),
  },
  search: {
    doc: 'search what was said and done in past sessions',
    query: SearchQuery.describe('search query'),
    reply: json(SearchResponse),
  },
  ingest: {
    doc: 'mine a transcript for memories (`wait: false`: 202 at once, ingested in the background; `next`: the file the caller sends next, read while this one is extracted)',
    body: IngestRequest.describe('ingest request'),
    reply: json(IngestResponse),
  },
  sessions: {
    doc: 'known sessions and how far each transcript was ingested; `project`; `q`: search what was said, grouped by session, best first; `order=recent`; a page: `offset`, `limit`, with the `total`',
    query: SessionListQuery.describe('query'),
    reply: json(SessionListResponse),
  },
  getSession: {
    doc: 'one session (id, unique prefix or file key): its record, digest, and subagent and compaction sidechains',
    params: { id: z.string().min(1).max(200).describe('session id') },
    reply: json(SessionShowResponse),
  },
  reextract: {
    doc: 'extract every session of a project again with the current extractor (what only a session gave and nobody touched is archived as replaced)',
    body: ReextractRequest.describe('reextract request'),
    reply: json(ReextractResponse),
  },
} as const satisfies Record<string, EndpointSpec>;
