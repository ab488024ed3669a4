// A JSON value as a readable tree: objects and arrays fold open and closed, text reads as text, web
// addresses are links. Used for task results and inputs.
import type { ReactNode } from 'react';

const LINK = /^https?:\/\/[^\s]+$/i;

function Scalar({ value }: { value: unknown }): ReactNode {
  if (value === null) return <span className="j-null">null</span>;
  if (typeof value === 'string') {
    if (LINK.test(value)) {
      return (
        <a className="j-str" href={value} rel="noopener noreferrer nofollow" target="_blank">
          {value}
        </a>
      );
    }
    return <span className="j-str">{value}</span>;
  }
  if (typeof value === 'number') return <span className="j-num">{String(value)}</span>;
  if (typeof value === 'boolean') return <span className="j-bool">{value ? 'true' : 'false'}</span>;
  return <span>{JSON.stringify(value)}</span>;
}

function Node({ value, depth }: { value: unknown; depth: number }): ReactNode {
  if (value === null || typeof value !== 'object') return <Scalar value={value} />;
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  if (entries.length === 0) return <span className="j-null">{Array.isArray(value) ? 'empty list' : 'empty'}</span>;
  const rows = (
    <dl className="j-rows">
      {entries.map(([key, v]) => (
        <div key={key} className="j-row">
          <dt>{Array.isArray(value) ? `#${Number(key) + 1}` : key}</dt>
          <dd>
            <Node value={v} depth={depth + 1} />
          </dd>
        </div>
      ))}
    </dl>
  );
  if (depth === 0) return rows;
  return (
    <details open={depth < 3}>
      <summary>{Array.isArray(value) ? `${entries.length} item${entries.length === 1 ? '' : 's'}` : `${entries.length} field${entries.length === 1 ? '' : 's'}`}</summary>
      {rows}
    </details>
  );
}

export function JsonView({ value, testId }: { value: unknown; testId?: string }) {
  return (
    <div className="json-view" data-testid={testId}>
      <Node value={value} depth={0} />
    </div>
  );
}
