import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/client';

/**
 * useAction runs one user action at a time: busy while it runs, and its
 * error (an ApiError's field errors in fieldErrors) kept for the form. A
 * run asked for while one is under way (a double click, Enter again) is
 * dropped: forms each checked busy themselves, and a second submit sent
 * a second request where one forgot to (two leagues, two invite codes).
 */
export function useAction() {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // busy as of now, not as of the last render: two submits in one tick
  const running = useRef(false);
  const run = async (action: () => Promise<void>) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(err);
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  /** clear drops the last error (a form clears it when its fields are edited). */
  const clear = () => setError(null);
  return { busy, error, fieldErrors: error instanceof ApiError ? error : null, run, clear };
}

/** useLoad runs an async loader and reloads when deps change. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const gen = useRef(0);
  const run = useCallback(() => {
    const my = ++gen.current;
    setLoading(true);
    load().then(
      (d) => {
        if (my !== gen.current) return;
        setData(d);
        setError(null);
        setLoading(false);
      },
      (e) => {
        if (my !== gen.current) return;
        setError(e);
        setLoading(false);
      },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  useEffect(run, [run]);
  return { data, error, loading, reload: run, setData };
}

/**
 * unplaced is the part of a form's error its error box shows: nothing when
 * every field error the server named is shown next to its field (shown
 * says which are), so that no message shows twice.
 */
export function unplaced(e: unknown, shown: (field: string) => boolean): unknown {
  if (e instanceof ApiError && e.fields.length > 0 && e.fields.every((f) => shown(f.field))) return null;
  return e;
}

/**
 * sentence shows a server's message ("the tournament cannot start with 0
 * entries: …") as a sentence: capitalised, with a full stop.
 */
export function sentence(text: string): string {
  const t = text.trim();
  if (!t) return t;
  const s = t[0].toUpperCase() + t.slice(1);
  return /[.!?…)]$/.test(s) ? s : s + '.';
}

/**
 * errorText is an error as the app shows it, standing alone: the server's
 * message ("you have 20 games waiting for players…") as a sentence.
 */
export function errorText(e: unknown): string {
  if (e instanceof ApiError) {
    if (e.status === 0) return 'Cannot reach the server. Check your connection and try again.';
    return sentence(e.detail || e.title);
  }
  return sentence(e instanceof Error ? e.message : String(e));
}

export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <div class="error" role="alert">
      {errorText(error)}
    </div>
  );
}

/**
 * LoadFailed is a page whose one subject (a player, a game, a club…) could
 * not be read. A 404 is said in the app's own words, as a heading ("No such
 * player") with a way on, where the page once showed the server's
 * lower-case "no such user" under a bare "Player"; any other error keeps
 * the page's own heading and shows the error.
 */
export function LoadFailed({ error, title, missing, wayOn }: { error: unknown; title: string; missing: string; wayOn: Crumb }) {
  if (error instanceof ApiError && error.status === 404) return <Missing heading={missing} wayOn={wayOn} />;
  return (
    <Page title={title}>
      <h1>{title}</h1>
      <ErrorBox error={error} />
    </Page>
  );
}

/** Missing is the page of an address that leads to nothing ("No such player"), with a way on. */
export function Missing({ heading, wayOn }: { heading: string; wayOn: Crumb }) {
  return (
    <Page title={heading}>
      <h1>{heading}</h1>
      <p>The link may be mistyped, or out of date.</p>
      <p>
        <a href={wayOn.href}>{wayOn.text}</a>
      </p>
    </Page>
  );
}

/**
 * LoadingPage is a page whose one subject is still being read: its heading
 * and tab title ("Club"), as LoadFailed's, over "Loading…". A bare
 * "Loading…" left the page with no heading, and the tab titled as the page
 * before it.
 */
export function LoadingPage({ title, what }: { title: string; what?: string }) {
  return (
    <Page title={title}>
      <h1>{title}</h1>
      <Loading what={what} />
    </Page>
  );
}

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p class="muted" role="status">
      {what}…
    </p>
  );
}

export function Field(props: {
  label: string;
  name: string;
  type?: string;
  value: string;
  onInput: (v: string) => void;
  error?: string;
  hint?: string;
  required?: boolean;
  autocomplete?: string;
  minLength?: number;
  maxLength?: number;
}) {
  const id = `f-${props.name}`;
  const describedBy = [props.hint ? id + '-hint' : '', props.error ? id + '-err' : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        required={props.required}
        autocomplete={props.autocomplete}
        minLength={props.minLength}
        maxLength={props.maxLength}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={describedBy}
        onInput={(e) => props.onInput((e.currentTarget as HTMLInputElement).value)}
      />
      {props.hint && (
        <small id={id + '-hint'} class="hint">
          {props.hint}
        </small>
      )}
      {props.error && (
        <small id={id + '-err'} class="field-error">
          {props.error}
        </small>
      )}
    </div>
  );
}

/** TextArea is a labelled multi-line text field, with its error said beside it as Field's is. */
export function TextArea(props: { id: string; label: string; value: string; onInput: (v: string) => void; error?: string; maxLength?: number; rows?: number }) {
  const err = `${props.id}-err`;
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <textarea
        id={props.id}
        rows={props.rows ?? 3}
        maxLength={props.maxLength}
        value={props.value}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={props.error ? err : undefined}
        onInput={(e) => props.onInput((e.currentTarget as HTMLTextAreaElement).value)}
      />
      {props.error && (
        <small id={err} class="field-error">
          {props.error}
        </small>
      )}
    </div>
  );
}

export function Page({ title, children, wide }: { title: string; children: ComponentChildren; wide?: boolean }) {
  useEffect(() => {
    document.title = `${title} · Seqleague`;
  }, [title]);
  return <div class={wide ? 'page wide' : 'page'}>{children}</div>;
}

export function when(iso?: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  return isNaN(d.getTime()) ? '' : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Crumb is a page above this one: its link and name. */
export interface Crumb {
  href: string;
  text: string;
}

/**
 * Crumbs lists the pages above this one ("Dev Club › Monday league ›
 * Spring"): a › between two of them and none after the last (a dangling
 * "Dev Club ›" read as something missing); the ones not known (falsy) are
 * left out, and with none the line is not drawn.
 */
export function Crumbs({ items }: { items: (Crumb | null | undefined | false)[] }) {
  const shown = items.filter((c): c is Crumb => !!c);
  if (!shown.length) return null;
  return (
    <p class="crumbs">
      {shown.map((c, i) => (
        <span key={c.href}>
          {i > 0 && ' › '}
          <a href={c.href}>{c.text}</a>
        </span>
      ))}
    </p>
  );
}
