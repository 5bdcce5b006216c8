import { useEffect, useRef } from 'preact/hooks';

/**
 * useFocusAfter moves the keyboard focus, once the next render is done, to
 * an element the component asks for: focusNext(selector) picks it inside
 * root (or root itself when it matches). It is how a control that goes away
 * or opens something hands the focus on, instead of losing it to the page.
 */
export function useFocusAfter<T extends HTMLElement>() {
  const root = useRef<T>(null);
  const next = useRef<string | null>(null);
  useEffect(() => {
    const sel = next.current;
    if (!sel || !root.current) return;
    next.current = null;
    const el = root.current.matches(sel) ? root.current : root.current.querySelector<HTMLElement>(sel);
    el?.focus();
  });
  return { root, focusNext: (selector: string) => void (next.current = selector) };
}
