// How far V8 lets the JavaScript heap grow past what its last full collection kept before it collects
// again. V8 chooses up to 4 times when collecting is fast, so the garbage of large requests (a body
// near the limit costs about 14 times its size in passing) grew to several times the live heap, and
// stayed resident: under a hostile mix, 520-530 MB at the peak with V8's choice, 399 MB with 50%
// (docs/decisions.md, Memory under hostile load).
import v8 from 'node:v8';

/** The growth allowed unless MARGINALIA_HEAP_GROWTH_PERCENT says otherwise. */
export const DEFAULT_HEAP_GROWTH_PERCENT = 50;

/**
 * Sets V8's heap growing factor to 1 + percent/100 (0 leaves V8's own). V8 reads the flag at every
 * collection, so setting it at start applies to the whole run; NODE_OPTIONS may not carry it.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
