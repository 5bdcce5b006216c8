import { useState } from 'preact/hooks';

/**
 * CopyButton puts text on the clipboard and says so ("Link copied"); where
 * the browser gives no clipboard (an insecure origin) it is not shown, and
 * the text stays to be selected by hand.
 */
export function CopyButton(props: { text: string; label?: string; done?: string }) {
  const [copied, setCopied] = useState<string | null>(null);
  if (typeof navigator === 'undefined' || !navigator.clipboard) return null;
  const copy = () => {
    const text = props.text;
    navigator.clipboard.writeText(text).then(
      () => setCopied(text),
      () => setCopied(null),
    );
  };
  return (
    <button type="button" class="secondary" onClick={copy}>
      {copied === props.text ? (props.done ?? 'Link copied') : (props.label ?? 'Copy the link')}
    </button>
  );
}
