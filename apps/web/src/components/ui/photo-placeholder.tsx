import type { CSSProperties } from 'react';

/**
 * What a card shows for a member without a photo: a neutral drawn head and shoulders on a soft background,
 * filling the photo's place (cover, standing at the bottom edge), so the card keeps its shape and reads as a
 * person rather than an empty box. Decorative, like the card's photo: the card's text names the member.
 */
export function PhotoPlaceholder({ className = '', style }: { className?: string; style?: CSSProperties }) {
  return (
    <svg
      className={className}
      style={style}
      viewBox="0 0 240 300"
      preserveAspectRatio="xMidYMax slice"
      aria-hidden="true"
      focusable="false"
      data-testid="photo-placeholder"
      xmlns="http://www.w3.org/2000/svg"
    >
      <defs>
        <linearGradient id="photo-placeholder-bg" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#f6f1f3" />
          <stop offset="1" stopColor="#e9e1e5" />
        </linearGradient>
      </defs>
      <rect width="240" height="300" fill="url(#photo-placeholder-bg)" />
      <g fill="#cfc3c9">
        {/* Shoulders, neck and head. */}
        <path d="M24 300c0-58 40-92 96-92s96 34 96 92z" />
        <path d="M104 168h32v44c0 9-7 16-16 16s-16-7-16-16z" />
        <ellipse cx="120" cy="128" rx="46" ry="54" />
      </g>
      {/* Hair, a shade darker, so the figure reads as a person at card size. */}
      <path d="M74 126c-2-38 20-62 46-62s50 22 46 62c-6-20-22-34-46-34s-40 14-46 34z" fill="#bfb1b8" />
    </svg>
  );
}
