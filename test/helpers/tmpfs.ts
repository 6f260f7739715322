// A small tmpfs for disk-full tests: mounting one needs root and a kernel that lets this process
// mount. CI requires these tests (MARGINALIA_TEST_REQUIRE_TMPFS=1); elsewhere they skip with the reason.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function unavailable(): string | false {
  if (process.getuid?.() !== 0) return 'mounting a small tmpfs needs root';
  const probe = mkdtempSync(join(tmpdir(), 'marginalia-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return false;
  } catch {
    return 'this machine does not let the test mount a tmpfs';
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

/** False when a tmpfs can be mounted, else why not (a skip reason). Throws when CI requires it. */
export const NO_TMPFS: string | false = unavailable();
if (NO_TMPFS && process.env.MARGINALIA_TEST_REQUIRE_TMPFS === '1') {
  throw new Error(`MARGINALIA_TEST_REQUIRE_TMPFS=1, but ${NO_TMPFS}`);
}

export interface Tmpfs {
  path: string;
  unmount(): void;
}

export function mountTmpfs(sizeMb: number, owner?: string): Tmpfs {
  const path = mkdtempSync(join(tmpdir(), 'marginalia-tmpfs-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0700`, 'tmpfs', path]);
  if (owner) execFileSync('chown', [`${owner}:${owner}`, path]);
  return {
    path,
    unmount: () => {
      execFileSync('umount', [path]);
      rmSync(path, { recursive: true, force: true });
    },
  };
}
