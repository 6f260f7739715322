// How far V8 lets the JavaScript heap grow past what its last full collection kept before it collects
// again. V8 chooses up to 4 times when collecting is fast, so the garbage of large requests (a body
// near the limit costs about 14 times its size in passing) grew to several times the live heap, and
// stayed resident: under a hostile mix, 520-530 MB at the peak with V8's choice, 399 MB with 50%
// (docs/decisions.md, Memory under hostile load).
import { createRequire } from 'node:module';
import v8 from 'node:v8';
import vm from 'node:vm';

/** The growth allowed unless MARGINALIA_HEAP_GROWTH_PERCENT says otherwise. */
export const DEFAULT_HEAP_GROWTH_PERCENT = 50;

/**
 * Sets V8's heap growing factor to 1 + percent/100 (0 leaves V8's own). V8 reads the flag at every
 * collection, so setting it at start applies to the whole run; NODE_OPTIONS may not carry it.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}

let gc: (() => void) | undefined;

/**
 * A full garbage collection now (at rest: http/at-rest.ts), so that what the caches let go is freed
 * without waiting for allocations that an idle process does not make. V8 exposes gc() to contexts made
 * after its flag is set, as jest's leak detector does; the flag changes nothing else.
 */
export function collectGarbage(): void {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
}

type Trim = (pad: number) => number;
let trim: Trim | null | undefined;

/**
 * Hands the C heap's free pages back to the operating system (glibc's malloc_trim), and says whether it
 * could. SQLite's page cache and the Buffers of answers are malloc'd among longer-lived allocations, so
 * once freed they are holes that glibc keeps resident: measured on the bench's large file, 160 MB of the
 * 325 MB a server held at rest (docs/decisions.md, "Memory at rest"). Elsewhere (musl, macOS) there is
 * no such call, and their allocators return memory on their own: nothing to do.
 */
export function returnFreeMemory(): boolean {
  if (trim === undefined) trim = loadTrim();
  if (!trim) return false;
  trim(0);
  return true;
}

function loadTrim(): Trim | null {
  if (process.platform !== 'linux') return null;
  try {
    // Loaded on first use only: a process never at rest does not map the FFI library.
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    return koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as Trim;
  } catch {
    return null;
  }
}
