import { LOADING_BAR } from '@amora/contracts/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Top progress bar (spec §9): appears only when loading lasts longer than 200 ms, creeps towards the end
 * over 5 s, and completes when loading ends.
 */
export function LoadingBar({ isLoading }: { isLoading: boolean }) {
  const { t } = useTranslation();
  const [width, setWidth] = useState(0);
  const [isVisible, setIsVisible] = useState(false);
  const timers = useRef<number[]>([]);

  useEffect(() => {
    const clear = () => {
      for (const id of timers.current) window.clearTimeout(id);
      timers.current = [];
    };
    clear();
    if (isLoading) {
      timers.current.push(
        window.setTimeout(() => {
          setIsVisible(true);
          setWidth(10);
          const steps = 10;
          for (let i = 1; i <= steps; i++) {
            timers.current.push(window.setTimeout(() => setWidth(10 + (80 * i) / steps), (LOADING_BAR.durationMs * i) / steps));
          }
        }, LOADING_BAR.throttleMs),
      );
    } else {
      setWidth((w) => (w > 0 ? 100 : 0));
      timers.current.push(
        window.setTimeout(() => {
          setIsVisible(false);
          setWidth(0);
        }, 300),
      );
    }
    return clear;
  }, [isLoading]);

  if (!isVisible) return null;
  return (
    <div
      className="loading-bar"
      role="progressbar"
      aria-label={t('common.loading')}
      aria-valuenow={Math.round(width)}
      aria-valuemin={0}
      aria-valuemax={100}
      style={{ width: `${width}%` }}
    />
  );
}
