import { ReactElement } from 'react';
import { ResponsiveContainer } from 'recharts';
import { formatSeconds } from '@refplat/plugin-promotions-common';

/** Series colours that read on the light and the dark theme. */
export const SERIES_COLOURS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b'];

const HOUR_MS = 60 * 60 * 1000;

/** Milliseconds as hours with one decimal, the unit of the duration axes. */
export const hours = (ms: number | undefined): number | undefined =>
  ms === undefined ? undefined : Math.round((ms / HOUR_MS) * 10) / 10;

/** A duration in words ("3h 20m"), or a dash without samples. */
export const duration = (ms: number | undefined): string =>
  ms === undefined ? '—' : formatSeconds(ms / 1000);

/** A slice's start as an axis label ("Jan 4"). */
export const sliceLabel = (from: Date): string =>
  from.toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** Room per category on a chart that lists its categories down the side (stages, rungs). */
export const CATEGORY_ROW_PX = 36;

/**
 * A chart as wide as its card, `height` tall (220 px unless told). The
 * initial size draws it before the first measurement (and where nothing is
 * measured, as in tests).
 */
export const ChartBox = (props: { title: string; height?: number; children: ReactElement }) => {
  const height = props.height ?? 220;
  return (
    <figure style={{ margin: 0 }} aria-label={props.title}>
      <ResponsiveContainer width="100%" height={height} initialDimension={{ width: 480, height }}>
        {props.children}
      </ResponsiveContainer>
    </figure>
  );
};
