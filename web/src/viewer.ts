// Who is signed in, for every page: asked of the service (`me`, with the session cookie) when the
// dashboard opens and after signing in or out. The page never sees the cookie itself.
import { useSyncExternalStore } from 'react';
import { gql, rest } from './api.js';
import { MeQuery } from './documents.js';
import { resetLive } from './live.js';

export interface SignedInUser {
  id: string;
  email: string;
  name?: string | null;
}

interface State {
  loaded: boolean;
  user: SignedInUser | null;
}

let state: State = { loaded: false, user: null };
const listeners = new Set<() => void>();

function set(next: State) {
  state = next;
  listeners.forEach((l) => l());
}

export async function refreshViewer(): Promise<SignedInUser | null> {
  try {
    const { me } = await gql(MeQuery);
    set({ loaded: true, user: me });
  } catch {
    // Signed out, or the session ended.
    set({ loaded: true, user: null });
  }
  resetLive();
  return state.user;
}

export async function signOut(): Promise<void> {
  await rest('POST', '/v1/auth/sign-out').catch(() => undefined);
  set({ loaded: true, user: null });
  resetLive();
}

export function useViewer(): State {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    () => state,
  );
}
