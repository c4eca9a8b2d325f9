import { useEffect, useState } from 'preact/hooks';
import { parseRoute, type Route } from './address.js';

export { memoryHref, parseRoute, type Route } from './address.js';

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const on = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}
