/**
 * Addresses worth keeping: where the project is deployed (a URL on a hosting platform).
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

/**
 * A memory for a URL on a hosting platform (where the app is deployed), if any. Other links stay in
 * the sentence that gives them: a label read from the words around a link ("demo") names the wrong
 * link as often as the right one.
 */
export function notableUrl(text: string): string | undefined {
  for (const url of urlsIn(text)) if (isHostingUrl(url)) return `Live at ${url}`;
  return undefined;
}
