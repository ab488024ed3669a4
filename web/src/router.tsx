// A small router over the History API: the dashboard has a handful of pages and needs nothing more.
import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

export type Route =
  | { page: 'discover' }
  | { page: 'agent'; slug: string }
  | { page: 'tasks' }
  | { page: 'task'; id: string }
  | { page: 'myAgents' }
  | { page: 'newAgent' }
  | { page: 'myAgent'; id: string }
  | { page: 'signIn' }
  | { page: 'signUp' }
  | { page: 'emailLink' }
  | { page: 'account' }
  | { page: 'consent' }
  | { page: 'billing' }
  | { page: 'payouts' }
  | { page: 'notFound' };

// A segment with bad percent-encoding (`/agents/%zz`) names no page; decodeURIComponent would throw.
function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

export function parseRoute(pathname: string): Route {
  const decoded = pathname.split('/').filter(Boolean).map(decodeSegment);
  if (decoded.includes(null)) return { page: 'notFound' };
  const parts = decoded as string[];
  if (parts.length === 0) return { page: 'discover' };
  if (parts[0] === 'sign-in' && parts.length === 1) return { page: 'signIn' };
  if (parts[0] === 'sign-in' && parts[1] === 'email' && parts.length === 2) return { page: 'emailLink' };
  if (parts[0] === 'sign-up' && parts.length === 1) return { page: 'signUp' };
  if (parts[0] === 'account' && parts.length === 1) return { page: 'account' };
  if (parts[0] === 'oauth' && parts[1] === 'authorize' && parts.length === 2) return { page: 'consent' };
  if (parts[0] === 'billing' && parts.length === 1) return { page: 'billing' };
  if (parts[0] === 'billing' && parts[1] === 'payouts' && parts.length === 2) return { page: 'payouts' };
  if (parts[0] === 'agents' && parts.length === 2) return { page: 'agent', slug: parts[1]! };
  if (parts[0] === 'tasks' && parts.length === 1) return { page: 'tasks' };
  if (parts[0] === 'tasks' && parts.length === 2) return { page: 'task', id: parts[1]! };
  if (parts[0] === 'my' && parts[1] === 'agents') {
    if (parts.length === 2) return { page: 'myAgents' };
    if (parts.length === 3) return parts[2] === 'new' ? { page: 'newAgent' } : { page: 'myAgent', id: parts[2]! };
  }
  return { page: 'notFound' };
}

const listeners = new Set<() => void>();

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  if (opts.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  listeners.forEach((l) => l());
}

window.addEventListener('popstate', () => listeners.forEach((l) => l()));

// The current location; re-renders on every navigation.
export function useLocation(): { pathname: string; search: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = () => setTick((t) => t + 1);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  return { pathname: location.pathname, search: new URLSearchParams(location.search) };
}

export function Link(props: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    props.onClick?.(event);
    // Let the browser handle new tabs, downloads and other modified clicks.
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(props.href);
  };
  return <a {...props} onClick={onClick} />;
}
