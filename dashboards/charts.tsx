/**
 * Server-rendered SVG charts. Every chart is an image with a title and a
 * description for assistive technology, and the same numbers follow as a
 * table under a "Show as table" disclosure, so each figure is also text.
 *
 * @module
 */

/** One stacked series of a {@link StackedDays} chart. */
export interface Series {
  key: string;
  label: string;
  /** CSS class giving the colour (`fill`). */
  kind: string;
}

/** Props of {@link StackedDays}. */
export interface StackedDaysProps {
  id: string;
  title: string;
  series: Series[];
  /** One entry per day, oldest first; `values[key]` per series. */
  days: Array<{ day: string; values: Record<string, number> }>;
  /** What a bar counts, for the description ("evaluations"). */
  unit: string;
  /** Drawn for a full-width card (else for a half-width one), so its text keeps its size. */
  wide?: boolean;
}

const HEIGHT = 200;
// The right pad holds half of the last day's label (`11-26`), so it is never clipped.
const PAD = { top: 10, right: 22, bottom: 24, left: 36 };

/** A "nice" axis maximum at or above `max`: 1, 2 or 5 times a power of ten. */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

function total(values: Record<string, number>, series: Series[]): number {
  return series.reduce((n, s) => n + (values[s.key] ?? 0), 0);
}

/** A stacked column chart with one column per day, plus its data table. */
export function StackedDays(props: StackedDaysProps) {
  const { series, days } = props;
  const WIDTH = props.wide ? 960 : 480;
  const sums = days.map((d) => total(d.values, series));
  const grand = sums.reduce((a, b) => a + b, 0);
  const top = niceMax(Math.max(0, ...sums));
  const ticks = Number.isInteger(top / 2) ? [0, top / 2, top] : [0, top];
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, days.length);
  const barW = Math.max(1, slot * 0.72);
  const y = (value: number) => PAD.top + plotH - (value / top) * plotH;
  const busiest = days.reduce<{ day: string; n: number } | null>(
    (best, d, i) => (sums[i] > (best?.n ?? 0) ? { day: d.day, n: sums[i] } : best),
    null,
  );
  const first = days[0]?.day ?? "";
  const last = days.at(-1)?.day ?? "";
  const description = grand === 0
    ? `No ${props.unit} from ${first} to ${last}.`
    : `${grand} ${props.unit} from ${first} to ${last}: ` +
      series.map((s) => `${s.label} ${days.reduce((n, d) => n + (d.values[s.key] ?? 0), 0)}`)
        .join(", ") +
      (busiest ? `. Busiest day ${busiest.day} with ${busiest.n}.` : ".");
  const labelEvery = Math.max(1, Math.ceil(days.length / (props.wide ? 12 : 6)));
  return (
    <figure class="chart" id={props.id}>
      <div
        class={props.wide ? "chart-scroll wide" : "chart-scroll"}
        tabindex={0}
        role="region"
        aria-label={`${props.title} (scrolls sideways on a small screen)`}
      >
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          role="img"
          aria-labelledby={`${props.id}-title ${props.id}-desc`}
          class="chart-svg"
        >
          <title id={`${props.id}-title`}>{props.title}</title>
          <desc id={`${props.id}-desc`}>{description}</desc>
          {ticks.map((tick) => (
            <g class="tick">
              <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} />
              <text x={PAD.left - 6} y={y(tick) + 4} text-anchor="end">{String(tick)}</text>
            </g>
          ))}
          {days.map((d, i) => {
            let base = 0;
            const x = PAD.left + i * slot + (slot - barW) / 2;
            return (
              <g>
                {series.map((s) => {
                  const value = d.values[s.key] ?? 0;
                  if (value === 0) return null;
                  const rect = (
                    <rect
                      class={`fill-${s.kind}`}
                      x={x.toFixed(1)}
                      y={y(base + value).toFixed(1)}
                      width={barW.toFixed(1)}
                      height={(y(base) - y(base + value)).toFixed(1)}
                    >
                      <title>{`${d.day}: ${value} ${s.label}`}</title>
                    </rect>
                  );
                  base += value;
                  return rect;
                })}
                {(days.length - 1 - i) % labelEvery === 0
                  ? (
                    <text
                      class="day"
                      x={(x + barW / 2).toFixed(1)}
                      y={HEIGHT - 6}
                      text-anchor="middle"
                    >
                      {d.day.slice(5)}
                    </text>
                  )
                  : null}
              </g>
            );
          })}
        </svg>
      </div>
      <figcaption>
        <ul class="legend">
          {series.map((s) => (
            <li>
              <span class={`swatch fill-${s.kind}`} aria-hidden="true"></span>
              {s.label}
            </li>
          ))}
        </ul>
        <p class="sr-summary">{description}</p>
        <details>
          <summary>Show as table</summary>
          <div class="table-wrap" tabindex={0} role="region" aria-label={`${props.title} table`}>
            <table class="sortable">
              <caption>{props.title}</caption>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  {series.map((s) => <th key={s.key} scope="col" class="num">{s.label}</th>)}
                  <th scope="col" class="num">Total</th>
                </tr>
              </thead>
              <tbody>
                {days.filter((_, i) => sums[i] > 0).map((d) => (
                  <tr>
                    <td>{d.day}</td>
                    {series.map((s) => <td key={s.key} class="num">{d.values[s.key] ?? 0}</td>)}
                    <td class="num">{total(d.values, series)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      </figcaption>
    </figure>
  );
}
