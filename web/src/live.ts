import { createContext } from 'preact';
import { useContext, useEffect, useRef } from 'preact/hooks';
import type { Change } from './operations.js';

/** One `memoryEvents` subscription per tab, fanned out to whatever view is open. */
export interface LiveHub {
  listen(fn: (c: Change) => void): () => void;
  /** After a reconnect (events may have been missed): views reload. */
  onResync(fn: () => void): () => void;
}

export const LiveContext = createContext<LiveHub>({ listen: () => () => {}, onResync: () => () => {} });

export function createHub(): LiveHub & { emit(c: Change): void; resync(): void } {
  const listeners = new Set<(c: Change) => void>();
  const resyncs = new Set<() => void>();
  return {
    listen(fn) { listeners.add(fn); return () => listeners.delete(fn); },
    onResync(fn) { resyncs.add(fn); return () => resyncs.delete(fn); },
    emit(c) { for (const fn of listeners) fn(c); },
    resync() { for (const fn of resyncs) fn(); },
  };
}

/** Calls the latest `fn` for every change (and `resync` after a reconnect). */
export function useChanges(fn: (c: Change) => void, resync?: () => void): void {
  const hub = useContext(LiveContext);
  const f = useRef(fn);
  const r = useRef(resync);
  f.current = fn;
  r.current = resync;
  useEffect(() => {
    const a = hub.listen((c) => f.current(c));
    const b = hub.onResync(() => r.current?.());
    return () => { a(); b(); };
  }, [hub]);
}
