import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Client } from '@urql/core';

/** The signed-in tab: its client, and the space it looks after (null: the token's own space). */
export interface Session {
  client: Client;
  spaceId: string | null;
  role: string;
  notify(message: string): void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside a signed-in page');
  return s;
}
