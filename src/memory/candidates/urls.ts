/**
 * Addresses worth keeping: where the project is deployed (a URL on a hosting platform), and its demo.
 * A deploy URL is the kind of durable outcome a next session asks for; most other URLs are not.
 */

const HOSTING =
  /^(?:[\w-]+\.)+(?:onrender\.com|vercel\.app|netlify\.app|fly\.dev|herokuapp\.com|pages\.dev|github\.io|railway\.app|web\.app|firebaseapp\.com|azurewebsites\.net|amplifyapp\.com|surge\.sh|glitch\.me|deno\.dev|workers\.dev|appspot\.com|streamlit\.app|replit\.app|vercel\.com)$/i;
const URL_RE = /\bhttps?:\/\/[^\s)>"'`\]]+/g;

export function urlsIn(text: string): string[] {
  return (text.match(URL_RE) ?? []).map((u) => u.replace(/[.,;:!?]+$/, ''));
}

export function isHostingUrl(url: string): boolean {
  try {
    return HOSTING.test(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** A memory for a URL the text presents as the live app or the demo, if any. */
export function notableUrl(text: string): string | undefined {
  for (const url of urlsIn(text)) {
    if (isHostingUrl(url)) return `Live at ${url}`;
    if (/\bdemo\b/i.test(text)) return `Demo: ${url}`;
  }
  return undefined;
}
