// `npm run console:admin -- <email> [name]`: the first admin of the operator console (or another one), made on
// the command line, never by a default password. Prints a one-time password; the first sign-in at /console sets
// up the authenticator (TOTP) and shows the recovery codes.
import { DataDirLockedError, migrateDatabase } from '@amora/db';
import { openDatabaseOf } from './bootstrap';
import { loadConfig } from './config';
import { createStaff } from './modules/staff/staff.service';

async function main(): Promise<number> {
  const [email, ...nameParts] = process.argv.slice(2);
  if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    console.error('Usage: npm run console:admin -- <email> [name]');
    return 2;
  }
  const config = loadConfig();
  let handle: Awaited<ReturnType<typeof openDatabaseOf>>;
  try {
    handle = await openDatabaseOf(config);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(`${error.message}\nStop the server, run this command, then start the server again.`);
      return 1;
    }
    throw error;
  }
  try {
    await migrateDatabase(handle);
    const { staff, password } = await createStaff(
      { db: handle.db },
      { staffId: null, ip: 'command line' },
      { email: email.toLowerCase(), name: nameParts.join(' ') || email.split('@')[0], role: 'admin' },
    );
    console.log(
      [
        '',
        `Admin ${staff.email} created.`,
        `  One-time password: ${password}`,
        '  Sign in at /console on any site; the first sign-in sets up the authenticator app (TOTP) and shows',
        '  ten recovery codes once.',
        '',
      ].join('\n'),
    );
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    return 1;
  } finally {
    await handle.close();
  }
}

main().then((code) => process.exit(code));
