/**
 * The person's side of Claude Code's interactive tools: answers to AskUserQuestion, the verdict on
 * an ExitPlanMode plan, and the reason given when they reject a tool call. Read from the call's
 * input (questions, options, plan) and its result (answer text, or `toolUseResult.answers`).
 */
import { isRecord, records, str } from './json.js';
import type { Answer, PlanVerdict } from './types.js';

export const ASK_TOOL = 'AskUserQuestion';
export const PLAN_TOOL = 'ExitPlanMode';

const REJECTED = /doesn't want to proceed with this tool use|tool use was rejected/;
/** Claude Code's two ways of passing on what the person typed when rejecting a call. */
const REASON = /(?:the user said:|reason for the rejection:)\s*([\s\S]+)$/i;

/** What the person typed when they rejected a tool call, if anything. */
export function rejectionReason(text: string): string | undefined {
  if (!REJECTED.test(text)) return undefined;
  const reason = REASON.exec(text)?.[1]?.trim();
  return reason === undefined || reason === '' ? undefined : reason;
}

export function isRejection(text: string): boolean {
  return REJECTED.test(text);
}

/**
 * The whole of a result that Claude Code writes for a declined call: rejected by the person (with or
 * without a reason), cancelled at the prompt, interrupted while it ran, or denied by a permission rule
 * ("Permission for this tool use was denied", also a subagent's rejection). An error result, and only
 * at its start: output that quotes these words (a `cat` of this file) is output.
 */
const DECLINED =
  /^(?:The user doesn't want to (?:proceed with this tool use|take this action right now)|Permission for this tool use was denied|\[Request interrupted by user)/;
/** What Codex returns for a command or patch the person declined at its approval prompt. */
const DECLINED_CODEX = /^(?:exec command|patch) rejected by user\s*$/;

/** The call never ran to an end: the person said no or stopped it, or a permission rule denied it. */
export function isDeclined(text: string, isError: boolean): boolean {
  const head = text.trimStart();
  return (isError && DECLINED.test(head)) || DECLINED_CODEX.test(head);
}

interface Question {
  question: string;
  options: string[];
}

function questionsOf(input: unknown): Question[] {
  if (!isRecord(input)) return [];
  return records(input.questions).flatMap((q) => {
    const question = str(q.question);
    if (question === undefined) return [];
    return [{ question, options: records(q.options).flatMap((o) => str(o.label) ?? []) }];
  });
}

/** `answer" selected preview:\n…` or `answer" user notes: …`: the answer, and notes the person typed. */
function cleanAnswer(segment: string): string {
  const notes = /"\s*user notes:\s*([\s\S]*)$/.exec(segment)?.[1]?.trim();
  const answer = segment.replace(/"\s*(?:selected preview:|user notes:)[\s\S]*$/, '').replace(/"\s*$/, '');
  return notes ? `${answer} (notes: ${notes.replace(/"$/, '')})` : answer;
}

/**
 * Pairs from the result text `… "q1"="a1", "q2"="a2". You can now continue …`. Known questions mark
 * where each answer ends, so commas and quotes inside answers (free-text "Other" answers) survive.
 */
function fromText(text: string, questions: Question[]): Map<string, string> {
  const out = new Map<string, string>();
  const end = text.search(/\.\s*You can now continue/);
  const body = end >= 0 ? text.slice(0, end) : text;
  if (questions.length === 0) {
    for (const m of body.matchAll(/"([^"]+)"="([^"]*)"/g)) if (m[1] !== undefined && m[2] !== undefined) out.set(m[1], m[2]);
    return out;
  }
  const starts = questions.map((q) => {
    const marker = `"${q.question}"="`;
    const at = body.indexOf(marker);
    return at < 0 ? undefined : { q, at, from: at + marker.length };
  });
  const found = starts.filter((s) => s !== undefined).sort((a, b) => a.at - b.at);
  found.forEach((s, i) => {
    const next = found[i + 1];
    const segment = body.slice(s.from, next === undefined ? body.length : next.at).replace(/,\s*$/, '');
    out.set(s.q.question, cleanAnswer(segment));
  });
  return out;
}

/** The question/answer pairs of an AskUserQuestion result, in the order the questions were asked. */
export function parseAnswers(input: unknown, resultText: string, toolUseResult: unknown): Answer[] {
  const questions = questionsOf(input);
  const given = isRecord(toolUseResult) && isRecord(toolUseResult.answers) ? toolUseResult.answers : undefined;
  const answers = new Map<string, string>();
  if (given) for (const [q, a] of Object.entries(given)) if (typeof a === 'string') answers.set(q, a);
  if (answers.size === 0) for (const [q, a] of fromText(resultText, questions)) answers.set(q, a);
  const out: Answer[] = [];
  for (const q of questions) {
    const answer = answers.get(q.question);
    if (answer === undefined) continue;
    out.push({ question: q.question, answer, ...(q.options.length > 0 && { options: q.options }) });
    answers.delete(q.question);
  }
  for (const [question, answer] of answers) out.push({ question, answer });
  return out;
}

export function renderAnswers(answers: Answer[]): string {
  return answers.map((a) => `${a.question} → ${a.answer}`).join('\n');
}

/** The person's verdict on a plan, from the ExitPlanMode result. */
export function planVerdict(text: string, isError: boolean): PlanVerdict {
  if (/\bUser (?:has )?approved\b/i.test(text)) return 'approved';
  if (isError || REJECTED.test(text) || /\bUser (?:has )?rejected\b/i.test(text)) return 'rejected';
  return 'pending';
}

/** The plan of an ExitPlanMode call: its input, else what the result or toolUseResult restate. */
export function planText(input: unknown, resultText: string, toolUseResult: unknown): string | undefined {
  const fromInput = isRecord(input) ? str(input.plan) : undefined;
  if (fromInput !== undefined) return fromInput;
  const fromResult = isRecord(toolUseResult) ? str(toolUseResult.plan) : undefined;
  if (fromResult !== undefined) return fromResult;
  const approved = /## Approved Plan:\s*\n([\s\S]+)$/.exec(resultText)?.[1]?.trim();
  return approved === undefined || approved === '' ? undefined : approved;
}
