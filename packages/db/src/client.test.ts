import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir, planOnce } from './client';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const clientModule = fileURLToPath(new URL('./client.ts', import.meta.url));

let dir: string;
let lockFile: string;
const children: ChildProcess[] = [];
const unlocks: (() => void)[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amora-lock-'));
  lockFile = join(dir, 'amora.lock');
});
afterEach(() => {
  for (const unlock of unlocks.splice(0)) unlock();
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function lock(path = dir): () => void {
  const unlock = lockDataDir(path);
  unlocks.push(unlock);
  return unlock;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A pid that no process has right now, starting from 999999. */
function deadPid(): number {
  let pid = 999_999;
  while (isAlive(pid)) pid++;
  return pid;
}

/** Another Amora process: takes the lock on `path` with the real lockDataDir and holds it until killed. */
async function lockInAnotherProcess(path: string): Promise<ChildProcess> {
  const code = `import { lockDataDir } from ${JSON.stringify(clientModule)};
lockDataDir(process.env.LOCK_DIR); process.stdout.write('locked\\n'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: repoRoot,
    env: { ...process.env, LOCK_DIR: path },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    let err = '';
    child.stderr?.on('data', (chunk) => {
      err += chunk;
    });
    child.stdout?.on('data', (chunk) => {
      if (String(chunk).includes('locked')) resolve();
    });
    child.on('exit', (status) => reject(new Error(`lock holder exited with ${status}: ${err}`)));
  });
  return child;
}

describe('lockDataDir', () => {
  it('writes the pid of this process into a lock file and removes it on unlock', () => {
    const unlock = lock();
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    unlock();
    expect(existsSync(lockFile)).toBe(false);
    // The directory can be locked again afterwards.
    lock();
    expect(existsSync(lockFile)).toBe(true);
  });

  it('creates a data directory that does not exist yet', () => {
    const nested = join(dir, 'data', 'db');
    lock(nested);
    expect(readFileSync(join(nested, 'amora.lock'), 'utf8')).toBe(String(process.pid));
  });

  it('refuses a directory another live process holds, naming that pid, and leaves its lock alone', async () => {
    const holder = await lockInAnotherProcess(dir);
    const pid = holder.pid as number;
    expect(readFileSync(lockFile, 'utf8')).toBe(String(pid));

    let caught: unknown;
    try {
      lock();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DataDirLockedError);
    const message = (caught as Error).message;
    expect(message).toContain(`pid ${pid}`);
    expect(message).toContain(dir);
    expect((caught as Error).name).toBe('DataDirLockedError');
    expect(readFileSync(lockFile, 'utf8')).toBe(String(pid));

    // Once that process is gone (killed, so it could not clean up) its lock is stale and is taken over.
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    expect(readFileSync(lockFile, 'utf8')).toBe(String(pid));
    lock();
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
  });

  it('takes over a stale lock file left by a process that is gone', () => {
    const pid = deadPid();
    writeFileSync(lockFile, String(pid));
    const unlock = lock();
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    unlock();
    expect(existsSync(lockFile)).toBe(false);
  });

  it('takes over an unreadable lock file', () => {
    writeFileSync(lockFile, 'not a pid');
    lock();
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
  });

  it("takes over a lock file naming this process's own pid (pid reuse after a restart, e.g. pid 1 in a container)", () => {
    writeFileSync(lockFile, String(process.pid));
    lock();
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
  });
});

describe('planOnce', () => {
  it('gives the planned pool its plan mode as a startup option', () => {
    expect(planOnce('postgres://u@db:5432/amora')).toEqual({
      connectionString: 'postgres://u@db:5432/amora',
      options: '-c plan_cache_mode=force_generic_plan',
    });
  });

  it('adds it to the options of the connection string, which would replace it', () => {
    expect(planOnce('postgres://u@db/amora?sslmode=require&options=-c%20search_path%3Dapp')).toEqual({
      connectionString: 'postgres://u@db/amora?sslmode=require&options=-c%20search_path%3Dapp%20-c%20plan_cache_mode%3Dforce_generic_plan',
    });
  });
});
