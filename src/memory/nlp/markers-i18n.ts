/**
 * Standing markers in other languages, for sentences the English model cannot analyse: "from now on",
 * "always", "never", "every time", "I want … like this from now on". Without parts of speech nothing
 * subtler can be read, so only these explicit markers make a non-English sentence a memory.
 */

const MARKERS: readonly RegExp[] = [
  // Chinese and Japanese: from now on, every time, always, never, without exception, must, forbidden;
  // from now on (ja), always (ja), never do (ja)
  /以后|今后|从现在开始|从今以后|每次|总是|始终|永远不要|千万不要|一律|务必|禁止|以後|これから|今後|毎回|いつも|必ず|絶対に/u,
  // Japanese written as a rule: "…しないこと。", "…すること。" (the register of a house rule, not a request).
  /(?:する|ない)こと[。．！!]?\s*$/u,
  // Czech, Slovak, Polish
  /\b(?:vždy|nikdy|od teď|od této chvíle|pokaždé|zawsze|nigdy|od teraz)\b/iu,
  // German, Dutch
  /\b(?:immer|niemals|nie wieder|ab jetzt|von nun an|jedes mal|altijd|nooit|vanaf nu)\b/iu,
  // French, Spanish, Portuguese, Italian
  /\b(?:toujours|jamais|désormais|dorénavant|à partir de maintenant|siempre|nunca|a partir de ahora|de ahora en adelante|sempre|nunca mais|d'ora in poi|da ora in poi|mai più)\b/iu,
  // As a rule, by default, in principle ("as a rule", "by default" in English): German, Dutch,
  // French, Spanish, Portuguese, Italian, Czech and Polish, Chinese and Japanese.
  /\b(?:grundsätzlich\w*|in der regel|standardmäßig|in principe|als regel|en règle générale|par défaut|par principe|por regla general|por defecto|por principio|por padrão|como regra|di default|per principio|di regola|zásadně|standardně|z zasady|domyślnie)(?![\p{L}])/iu,
  /原则上|原則として|默认情况下|一般情况下|デフォルトで|基本的に/u,
];

export function hasStandingMarker(text: string): boolean {
  return MARKERS.some((re) => re.test(text));
}

/**
 * Requests of the moment in other languages: a task taken up now ("…をやりましょう", "bau bitte …"),
 * going on with the work in hand ("weiter mit …"), to do once more what was just done ("relance",
 * "nochmal", "otra vez", "もう一回", "再跑一次"), to explain something ("explique-moi",
 * "erklär mir", "explícame", "説明して", "解释一下"), or to hand something over ("dej mi", "gib mir",
 * "montre-moi", "見せて").
 */
const MOMENT: readonly RegExp[] = [
  // "Today …": the day's goal or request ("aujourd'hui je veux …", "hoy quiero …", "今天要…").
  /今天|今日は|今日中に|\b(?:aujourd'hui|hoy|heute|oggi|hoje|dzisiaj|dnes)\b/iu,
  // Japanese "let's do it" (やりましょう), a task taken up now; not にしましょう, "let's go with", a choice.
  /(?:を|は)?(?:やりましょう|やろう)(?:[。！!]|$)/u,
  /もう一回|もう一度|再度|再(?:跑|来|试|做|运行|执行|测|测试|构建|编译)?一次|再跑|再来|再试|説明して|教えて|解释一下|解释下|讲一下|说明一下/u,
  /\b(?:nochmal|noch ?einmal|erneut|encore une fois|à nouveau|de nouveau|relance[rz]?|otra vez|de nuevo|vuelve a|de novo|outra vez|di nuovo|ancora una volta|znovu|jeszcze raz)\b/iu,
  // Czech, Slovak and Polish "do …" / "make …": a task asked for now.
  /(?:^|\s)(?:udělej|udělejte|urob|zrób|zrob)(?=\s)/iu,
  // "Give me …", "show me …", "send me …": something handed over now.
  /(?:^|\s)(?:dej|dejte|daj|dajte|pošli|pošlete|ukaž|ukažte|pokaż|wyślij)\s+mi\b/iu,
  /\b(?:donne[sz]?[- ]moi|montre[sz]?[- ]moi|envoie[sz]?[- ]moi|gib mir|zeig(?:e)? mir|schick(?:e)? mir|dame|muéstrame|mándame|enséñame|dammi|mostrami|mandami|me (?:dá|mostra|manda))\b/iu,
  /给我看|发给我|給我看|見せて|送って/u,
  // A task asked for now, opening the sentence with its verb ("Bau bitte einen CSV-Export", "Ajoute
  // un bouton", "Crea un endpoint"), nothing in it said not to do (a prohibition stands).
  /^(?!.*\b(?:nicht|kein\w*|nie|niemals|ne|pas|jamais|no|nunca|non)\b)\W*(?:bau(?:e)?|erstell(?:e)?|implementier(?:e)?|lösch(?:e)?|entfern(?:e)?|änder(?:e)?|ajoute|crée|construis|implémente|corrige|supprime|añade|agrega|crea|construye|implementa|corrige|arregla|borra|elimina)\s/iu,
  // Going on with what is in hand: "weiter mit der README", "mach weiter", "on continue avec …", "sigue con …".
  /^\W*(?:weiter mit|mach(?:en wir)? weiter|on continue|continue avec|continuons|sigue con|seguimos con|continúa con|continua con|andiamo avanti)\b/iu,
  /\b(?:explique[sz]?[- ]moi|expliquez|erklär(?:e|en Sie)? mir|explícame|explicame|explícanos|me explicas|explica(?:-me| me)|spiegami|vysvětli|wyjaśnij)\b/iu,
];

export function hasMomentMarker(text: string): boolean {
  return MOMENT.some((re) => re.test(text));
}

/**
 * Work still to do, under way, or picked up from an earlier session, in any language: "il reste
 * …", "on reprend", "falta …", "retomo lo de …", "还剩", "继续上次的", "前回の続き", "noch offen",
 * "last one from the list", "the fourth is in progress", "picking up where we left off". It says
 * where the work stands, which a later session outdates.
 */
const OPEN_WORK: readonly RegExp[] = [
  /还剩|还没(?:做|完成|弄)|剩下的|继续上次|接着上次|上次没做完|前回の続き|の続きです|残り(?:は|の)|まだ終わって/u,
  /\b(?:il reste|reste à faire|on reprend|reprenons|je reprends|falta(?:n)?|queda(?:n)? pendiente|lo que queda|retomo|retomamos|fehlt noch|noch offen|es fehlt|machen weiter mit|zbývá|zostało do zrobienia)\b/iu,
  /\b(?:still left|left to do|in progress|not (?:done|finished) yet|half done|last one (?:from|on) the list|next on the list|left on the list|picking up where|pick up where|where we left off|left off last time|continuing from last time)\b/i,
];

export function hasOpenWorkMarker(text: string): boolean {
  return OPEN_WORK.some((re) => re.test(text));
}

/** Thanks and acknowledgements in other languages: "merci, c'est nickel", "好的，谢谢", "了解". */
const ACK: readonly RegExp[] = [
  /谢谢|多谢|好的|收到|没问题|ありがとう|了解|いい感じ|完璧|よろしく|お疲れ/u,
  /\b(?:merci|parfait|nickel|d'accord|danke|perfekt|passt|genau|gracias|perfecto|vale|listo|obrigad[oa]|grazie|perfetto|dzięki|díky)\b/iu,
];

/** A short message of thanks or acknowledgement in another language; a long one says more than that. */
export function isAcknowledgement(text: string): boolean {
  return text.trim().length <= 40 && ACK.some((re) => re.test(text));
}
