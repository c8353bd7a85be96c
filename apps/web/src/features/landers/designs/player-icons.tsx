/** The play and pause marks of the landers' slideshows (video, transitionsvideolanding). */
export function PlayIcon({ size }: { size: number }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
      <path d="M8 5.5v13l10.5-6.5z" fill="currentColor" />
    </svg>
  );
}

export function PauseIcon({ size }: { size: number }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
      <path d="M7 5h3.5v14H7zm6.5 0H17v14h-3.5z" fill="currentColor" />
    </svg>
  );
}
