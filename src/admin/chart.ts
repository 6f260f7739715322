// The console's charts: inline SVG written on the server (no script, nothing loaded), bars with their values.
import { html, type Markup } from './html.js';

export interface Bar {
  label: string;
  value: number;
}

const ROW = 22;
const LABEL_WIDTH = 220;
const BAR_WIDTH = 320;

/** A horizontal bar chart, one row per bar, scaled to the largest; titled for screen readers. */
export function barChart(title: string, bars: readonly Bar[]): Markup {
  if (bars.length === 0) return html`<p class="muted">${title}: nothing counted yet.</p>`;
  const most = Math.max(...bars.map((b) => b.value), 1);
  const height = bars.length * ROW + 8;
  const width = LABEL_WIDTH + BAR_WIDTH + 80;
  const rows = bars.map((b, i) => {
    const y = 4 + i * ROW;
    const w = b.value > 0 ? Math.max(1, Math.round((b.value / most) * BAR_WIDTH)) : 0;
    return html`<text x="${LABEL_WIDTH - 6}" y="${y + 15}" text-anchor="end">${b.label}</text>
<rect x="${LABEL_WIDTH}" y="${y + 3}" width="${w}" height="${ROW - 6}" fill="#3b6fb6"></rect>
<text x="${LABEL_WIDTH + w + 6}" y="${y + 15}">${b.value}</text>`;
  });
  return html`<figure><figcaption>${title}</figcaption>
<svg class="chart" role="img" aria-label="${title}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"
 xmlns="http://www.w3.org/2000/svg">${rows}</svg></figure>`;
}
