import type { CSSProperties } from 'react';

type AvatarSize = 'sm' | 'md' | 'lg' | 'xl';

const PLACEHOLDER_COLOURS = ['#c8213a', '#d9482b', '#b5406b', '#8a3ffc', '#1e7e45', '#0f6e8c', '#a35200', '#5b4b8a'];

/** A colour picked from the name, so a member keeps the same one everywhere. */
function colourOf(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return PLACEHOLDER_COLOURS[hash % PLACEHOLDER_COLOURS.length];
}

export interface AvatarProps {
  name: string;
  /** The photo; without one the first letter of the name stands on a colour of its own. */
  src?: string | null;
  size?: AvatarSize;
  /** Read out as the picture's name; leave false when the name is written next to it. */
  isLabelled?: boolean;
  className?: string;
}

/** A member's round picture: the photo, or the initial as a placeholder. */
export function Avatar({ name, src, size = 'md', isLabelled = false, className }: AvatarProps) {
  const classes = ['avatar', size !== 'md' ? `avatar-${size}` : null, className].filter(Boolean).join(' ');
  if (src) {
    return (
      <span className={classes}>
        <img src={src} alt={isLabelled ? name : ''} loading="lazy" decoding="async" />
      </span>
    );
  }
  const initial = Array.from(name.trim())[0]?.toLocaleUpperCase() ?? '?';
  const style = { '--am-avatar-bg': colourOf(name) } as CSSProperties;
  if (isLabelled) {
    return (
      <span className={classes} style={style} role="img" aria-label={name} data-testid="avatar-placeholder">
        {initial}
      </span>
    );
  }
  return (
    <span className={classes} style={style} aria-hidden="true" data-testid="avatar-placeholder">
      {initial}
    </span>
  );
}
