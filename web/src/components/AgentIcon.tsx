// An agent's icon: its own (iconUrl, from its A2A card) or one made from its name: the initials on a
// colour picked from the name, so the same agent always looks the same. Decorative: the name is
// always written beside it.
import { useState } from 'react';

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

const initials = (name: string) =>
  name
    .split(/[\s_-]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => [...w][0]!.toUpperCase())
    .join('') || '?';

export function AgentIcon({ agent, size = 44 }: { agent: { name: string; iconUrl?: string | null }; size?: number }) {
  const [broken, setBroken] = useState(false);
  // Only https icons: the page's CSP allows no other outside images.
  if (agent.iconUrl && /^https:\/\//i.test(agent.iconUrl) && !broken) {
    return <img className="agent-icon" src={agent.iconUrl} alt="" width={size} height={size} referrerPolicy="no-referrer" onError={() => setBroken(true)} />;
  }
  const h = hash(agent.name);
  const hue = h % 360;
  // Dark enough behind white text for a contrast above 4.5:1.
  const bg = `hsl(${hue} 55% 32%)`;
  const accent = `hsl(${(hue + 40) % 360} 60% 42%)`;
  return (
    <svg className="agent-icon" width={size} height={size} viewBox="0 0 44 44" aria-hidden="true" focusable="false">
      <rect width="44" height="44" rx="10" fill={bg} />
      <circle cx={(h >> 9) % 2 ? 38 : 6} cy={(h >> 10) % 2 ? 38 : 6} r="14" fill={accent} />
      <text x="22" y="27.5" textAnchor="middle" fontSize="16" fontWeight="700" fill="#fff" fontFamily="system-ui, sans-serif">
        {initials(agent.name)}
      </text>
    </svg>
  );
}
