// A time in words ("5 minutes ago"), with the exact time in the browser's locale on hover and for
// assistive technology; it re-reads itself each half minute so "just now" does not stay.
import { useEffect, useState } from 'react';
import { exact, relative } from '../format.js';

export function When({ at }: { at: string | null | undefined }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => tick((n) => n + 1), 30_000);
    return () => clearInterval(timer);
  }, []);
  if (!at) return <>–</>;
  const full = exact(at);
  return (
    <time dateTime={at} title={full} aria-label={`${relative(at)} (${full})`}>
      {relative(at)}
    </time>
  );
}
