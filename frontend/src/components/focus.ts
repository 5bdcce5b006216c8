import { useEffect, useRef } from 'preact/hooks';

/** isDisabled: a control a browser will not focus (and takes the focus from when it becomes disabled). */
export function isDisabled(el: Element): boolean {
  return (el as HTMLButtonElement).disabled === true;
}

/**
 * useFocusAfter moves the keyboard focus, once the next render is done, to
 * an element the component asks for: focusNext(selector, ...fallbacks)
 * picks the first of them found inside root (or root itself when it
 * matches). It is how a control that goes away or opens something hands
 * the focus on, instead of losing it to the page.
 *
 * A browser does not focus a disabled control (a button disabled while its
 * request runs), so while the element found is disabled the request waits
 * for the render that enables it, rather than being spent on it in vain.
 */
export function useFocusAfter<T extends HTMLElement>() {
  const root = useRef<T>(null);
  const next = useRef<{ selectors: string[]; at: number } | null>(null);
  // Renders are counted so that an effect acts only on a request made
  // before its render: preact runs a render's pending effects at the start
  // of the next one, when the DOM does not show what was asked for yet.
  const renders = useRef(0);
  const rendered = ++renders.current;
  useEffect(() => {
    const req = next.current;
    if (!req || req.at >= rendered || !root.current) return;
    for (const sel of req.selectors) {
      const el = root.current.matches(sel) ? root.current : root.current.querySelector<HTMLElement>(sel);
      if (!el) continue;
      if (isDisabled(el)) return; // try again after the next render
      next.current = null;
      el.focus();
      return;
    }
    next.current = null;
  });
  return { root, focusNext: (...selectors: string[]) => void (next.current = { selectors: selectors.filter(Boolean), at: renders.current }) };
}
