import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

interface FigureChartProps {
  title: string;
  /** The days, YYYY-MM-DD. */
  days: readonly string[];
  /** One line per series, a value per day. */
  series: readonly { label: string; values: readonly number[] }[];
}

const COLOURS = ['#d63384', '#0d6efd', '#198754', '#fd7e14', '#6f42c1'];
const HEIGHT = 180;

/** One figure over the period as a uPlot line chart; uPlot itself loads with the first chart. */
export function FigureChart({ title, days, series }: FigureChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let chart: uPlot | null = null;
    let cancelled = false;
    const x = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
    void import('uplot').then(({ default: UPlot }) => {
      if (cancelled) return;
      chart = new UPlot(
        {
          width: Math.max(240, element.clientWidth),
          height: HEIGHT,
          legend: { show: series.length > 1 },
          scales: { x: { time: true } },
          series: [{}, ...series.map((s, i) => ({ label: s.label, stroke: COLOURS[i % COLOURS.length], width: 2 }))],
        },
        [x, ...series.map((s) => [...s.values])],
        element,
      );
    });
    const resize = () => chart?.setSize({ width: Math.max(240, element.clientWidth), height: HEIGHT });
    window.addEventListener('resize', resize);
    return () => {
      cancelled = true;
      window.removeEventListener('resize', resize);
      chart?.destroy();
    };
  }, [days, series]);

  return (
    <figure className="card card-body mb-0 h-100">
      <figcaption className="small fw-semibold mb-1">{title}</figcaption>
      <div ref={box} role="img" aria-label={title} data-testid="report-chart" />
    </figure>
  );
}
