/**
 * Standing markers in other languages, for sentences the English model cannot analyse: "from now on",
 * "always", "never", "every time", "I want … like this from now on". Without parts of speech nothing
 * subtler can be read, so only these explicit markers make a non-English sentence a memory.
 */

const MARKERS: readonly RegExp[] = [
  // Chinese and Japanese: from now on, every time, always, never, from now on (ja), always (ja), never do (ja)
  /以后|今后|从现在开始|从今以后|每次|总是|始终|永远不要|千万不要|以後|これから|今後|毎回|いつも|必ず|絶対に/u,
  // Czech, Slovak, Polish
  /\b(?:vždy|nikdy|od teď|od této chvíle|pokaždé|zawsze|nigdy|od teraz)\b/iu,
  // German, Dutch
  /\b(?:immer|niemals|nie wieder|ab jetzt|von nun an|jedes mal|altijd|nooit|vanaf nu)\b/iu,
  // French, Spanish, Portuguese, Italian
  /\b(?:toujours|jamais|désormais|dorénavant|à partir de maintenant|siempre|nunca|a partir de ahora|de ahora en adelante|sempre|nunca mais|d'ora in poi|da ora in poi|mai più)\b/iu,
];

export function hasStandingMarker(text: string): boolean {
  return MARKERS.some((re) => re.test(text));
}
