/**
 * Claude Code's own words around a compaction: the opening of the summary it hands the next
 * context, the note that the full transcript can be read, and the instruction to carry on that it
 * sends in the person's turn ("Please continue the conversation from where we left it off…",
 * "Resume directly — do not acknowledge the summary…"). They are the tool speaking, never the
 * person, whether they arrive inside the summary message or as a user line of their own. Recognised
 * by the shapes of those sentences, whatever their exact wording in a given version.
 */

const SHAPES: readonly RegExp[] = [
  // The summary's opening.
  /\bthis session is being continued from a previous conversation\b/i,
  /\b(?:the )?(?:conversation is summari[sz]ed below|summary below covers the earlier portion)\b/i,
  // Carry on: "continue the conversation from where …", "… without asking the user any further
  // questions", "continue with the last task that you were asked to work on".
  /\bcontinue the conversation from where\b/i,
  /\bwithout asking the user (?:any )?further questions\b/i,
  /\b(?:continue|proceed|pick up)\s+(?:with\s+)?the last task (?:that )?you were (?:asked|working)\b/i,
  /\bas if the break never happened\b/i,
  // Directions about the summary itself: "do not acknowledge the summary, do not recap …".
  /\b(?:do not|don't)\s+(?:acknowledge|recap|mention|refer to)\s+(?:the|this)\s+(?:summary|compaction|break)\b/i,
  /\bresume directly\b/i,
  // Where the pre-compaction transcript is: "…read the full transcript at: /…/x.jsonl".
  /\b(?:read|see) the full transcript at\b/i,
  /\bfrom before (?:the )?compaction\b/i,
];

/** One sentence (or line) of Claude Code's compaction and continuation text. */
export function isContinuationText(sentence: string): boolean {
  return SHAPES.some((re) => re.test(sentence));
}

/** A user-turn message that is nothing but Claude Code's instruction to carry on after a compaction. */
export function isContinuationMessage(text: string): boolean {
  const sentences = text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return sentences.length > 0 && sentences.every(isContinuationText);
}
