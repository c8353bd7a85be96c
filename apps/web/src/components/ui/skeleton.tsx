import type { CSSProperties, ReactNode } from 'react';

export interface SkeletonProps {
  /** 'text' is a line of text's height; 'rect' and 'circle' take width and height. */
  shape?: 'text' | 'rect' | 'circle';
  width?: CSSProperties['width'];
  height?: CSSProperties['height'];
  className?: string;
}

/** A grey placeholder of the content's shape while it loads. Hidden from assistive technology: the loading state is told by the region around it (`aria-busy`, or a `SkeletonList`). */
export function Skeleton({ shape = 'text', width, height, className }: SkeletonProps) {
  const classes = ['skeleton', shape === 'text' ? 'skeleton-text' : null, shape === 'circle' ? 'skeleton-circle' : null, className]
    .filter(Boolean)
    .join(' ');
  return <span className={classes} style={{ width, height }} aria-hidden="true" />;
}

/** Lines of text, the last one shorter, as a paragraph will be. */
export function SkeletonText({ lines = 3 }: { lines?: number }) {
  return (
    <>
      {Array.from({ length: lines }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders, never reordered
        <Skeleton key={i} width={i === lines - 1 && lines > 1 ? '60%' : '100%'} />
      ))}
    </>
  );
}

/** A loading region: says "Loading…" to assistive technology and shows the skeletons it is given. */
export function SkeletonRegion({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={className} role="status" aria-busy="true" aria-label={label}>
      {children}
    </div>
  );
}
