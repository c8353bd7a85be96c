/** The heart of likes and matches. */
export function HeartIcon({ isFilled = true, size = 18 }: { isFilled?: boolean; size?: number }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
      <path
        d="M12 21 3.5 12.7a5.2 5.2 0 0 1 7.4-7.4L12 6.4l1.1-1.1a5.2 5.2 0 0 1 7.4 7.4z"
        fill={isFilled ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth={isFilled ? 0 : 2}
        strokeLinejoin="round"
      />
    </svg>
  );
}
