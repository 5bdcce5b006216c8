// What a screen reader reads of an element, near enough for tests: happy-dom
// applies no stylesheet, so words hidden only visually (.sr-only, the seat
// list's compact lines) count, as they do for a screen reader.

/**
 * spokenText is el's text without its aria-hidden parts; an element with
 * role="img" reads as its aria-label. Pieces are joined as in the DOM, with
 * no space added (as textContent).
 */
export function spokenText(el: Element): string {
  if (el.getAttribute('aria-hidden') === 'true') return '';
  if (el.getAttribute('role') === 'img') return el.getAttribute('aria-label') ?? '';
  let out = '';
  for (const n of el.childNodes) {
    if (n.nodeType === 3) out += n.textContent ?? '';
    else if (n.nodeType === 1) out += spokenText(n as Element);
  }
  return out;
}
