import { useEffect, useState } from 'preact/hooks';

/** Hash routes (the server serves one page at `/`): #/ , #/memory/<id>, #/inferences, #/cleanup. */
export type Route =
  | { name: 'list' }
  | { name: 'memory'; id: string }
  | { name: 'inferences' }
  | { name: 'cleanup' };

export function parseRoute(hash: string): Route {
  const m = /^#\/memory\/(.+)$/.exec(hash);
  if (m) return { name: 'memory', id: decodeURIComponent(m[1]) };
  if (hash === '#/inferences') return { name: 'inferences' };
  if (hash === '#/cleanup') return { name: 'cleanup' };
  return { name: 'list' };
}

export const memoryHref = (id: string) => `#/memory/${encodeURIComponent(id)}`;

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const on = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}
