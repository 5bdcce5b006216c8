import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ErrorBox, Loading } from './components/ui';

/** lazy loads a page's code the first time it is shown (its own chunk). */
export function lazy<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  return function Lazy(props: P) {
    const [C, setC] = useState<ComponentType<P> | null>(() => loaded);
    const [error, setError] = useState<unknown>(null);
    useEffect(() => {
      if (C) return;
      pending ??= load().then((m) => (loaded = m.default));
      pending.then((c) => setC(() => c), (e) => {
        pending = null;
        setError(e);
      });
    }, []);
    if (error) return <ErrorBox error={error} />;
    return C ? <C {...props} /> : <Loading />;
  };
}
