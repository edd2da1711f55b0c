/** j / k move the focus down / up a list's links (when no text field has it). */
import { useEffect, useRef } from 'preact/hooks';

export function useListKeys<E extends HTMLElement>(selector: string) {
  const ref = useRef<E>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.key !== 'j' && e.key !== 'k') || e.ctrlKey || e.metaKey || e.altKey) return;
      const target = e.target as HTMLElement | null;
      if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' || target.isContentEditable)) return;
      const links = Array.from(ref.current?.querySelectorAll<HTMLElement>(selector) ?? []);
      if (links.length === 0) return;
      const at = links.indexOf(document.activeElement as HTMLElement);
      const next = at < 0 ? 0 : Math.min(links.length - 1, Math.max(0, at + (e.key === 'j' ? 1 : -1)));
      links[next]?.focus();
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [selector]);
  return ref;
}
