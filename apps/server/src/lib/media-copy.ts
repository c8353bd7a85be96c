import { join } from 'node:path';
import { localMediaStore, type MediaStore } from './media-storage';

/** What the media store holds: the photos (and chat photos) and the data-export ZIPs. */
const MEDIA_PREFIXES = ['media/', 'exports/'] as const;
/** Uploads at once. */
const PARALLEL = 8;

export interface CopyReport {
  copied: number;
  copiedBytes: number;
  /** Already in the target under the same key with the same size (a run before this one copied them). */
  skipped: number;
  failed: { key: string; error: string }[];
}

/**
 * Copies the media of a DATA_DIR folder (`media/…`, `exports/…`) into another store under the same keys, leaving
 * the folder as it is (`npm run media:to-bucket`). An object already there with the same size is left alone, so a
 * run that stopped half-way is finished by running it again, and a second run copies nothing (the keys are random
 * and written once, so the same key and size is the same file). `onProgress` hears of each object copied.
 */
export async function copyMediaFolder(
  dataDir: string,
  target: MediaStore,
  onProgress: (event: { key: string; size: number; copied: boolean }) => void = () => {},
): Promise<CopyReport> {
  const source = localMediaStore(dataDir);
  const report: CopyReport = { copied: 0, copiedBytes: 0, skipped: 0, failed: [] };
  for (const prefix of MEDIA_PREFIXES) {
    const there = new Map<string, number>();
    for await (const object of target.list(prefix)) there.set(object.key, object.size);
    const pending: Promise<void>[] = [];
    const running = new Set<Promise<void>>();
    for await (const object of source.list(prefix)) {
      if (there.get(object.key) === object.size) {
        report.skipped++;
        onProgress({ ...object, copied: false });
        continue;
      }
      const upload = target
        .putFile(object.key, join(dataDir, object.key))
        .then((size) => {
          report.copied++;
          report.copiedBytes += size;
          onProgress({ key: object.key, size, copied: true });
        })
        .catch((error: unknown) => {
          report.failed.push({ key: object.key, error: error instanceof Error ? error.message : String(error) });
        })
        .finally(() => running.delete(upload));
      running.add(upload);
      pending.push(upload);
      if (running.size >= PARALLEL) await Promise.race(running);
    }
    await Promise.all(pending);
  }
  return report;
}
