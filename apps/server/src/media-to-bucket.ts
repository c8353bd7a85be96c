// `npm run media:to-bucket`: copies the media of DATA_DIR (photos, chat photos, data-export ZIPs) into the bucket
// that S3_BUCKET (with S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY) names, under the same keys.
// Safe to run again: what is there already is skipped, so an interrupted copy is finished by running it once more.
// The folder is left as it is. See docs/operations.md, "Media storage".
import { loadConfig } from './config';
import { copyMediaFolder } from './lib/media-copy';
import { mediaStoreOf } from './lib/media-storage';

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

async function main(): Promise<number> {
  const config = loadConfig();
  if (config.media.kind !== 's3') {
    console.error('Set S3_BUCKET (and S3_ENDPOINT or S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY) to the bucket to copy to.');
    return 2;
  }
  const target = mediaStoreOf(config);
  try {
    await target.check();
  } catch (error) {
    console.error(`Cannot reach ${target.description}: ${error instanceof Error ? error.message : error}`);
    return 1;
  }
  console.log(`Copying the media of ${config.dataDir} to ${target.description}…`);
  let seen = 0;
  const copied = { photos: 0, exports: 0 };
  const report = await copyMediaFolder(config.dataDir, target, (event) => {
    if (event.copied) copied[event.key.startsWith('exports/') ? 'exports' : 'photos']++;
    if (++seen % 1000 === 0) console.log(`  ${seen} files looked at`);
  });
  console.log(
    `Copied ${report.copied} files (${megabytes(report.copiedBytes)}): ${copied.photos} photo files, ${copied.exports} data exports; ` +
      `${report.skipped} were in the bucket already; ${report.failed.length} failed.`,
  );
  for (const failure of report.failed.slice(0, 20)) console.error(`  not copied: ${failure.key}: ${failure.error}`);
  if (report.failed.length) {
    console.error('Run the command again to copy what failed.');
    return 1;
  }
  console.log('Done. Start the servers with the S3_ variables set; the folder can be removed once they serve from the bucket.');
  return 0;
}

process.exitCode = await main();
