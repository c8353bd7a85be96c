// Many profiles for the search benchmarks, written by the database itself (generate_series), so a million rows
// take seconds, not minutes. Attributes are independent (hashint4 of different seeds), so filters combine as on
// a real site: two thirds on site 1, a third on site 2; 15 countries, 10 regions each; 2 % not activated;
// birth dates 1950-2004; three genders; 1 % invisible; 10 % fictional. No accounts (user_id null).

const COUNTRIES = ['NL', 'BE', 'FR', 'IT', 'ES', 'DE', 'AT', 'IE', 'GB', 'US', 'CA', 'PL', 'AU', 'NZ', 'CH'];

/** `execute(text)` runs one SQL statement; profiles 1..count (in the series, not ids) are added, then analyzed. */
export async function fillProfiles(execute, count) {
  const countries = `array[${COUNTRIES.map((c) => `'${c}'`).join(',')}]`;
  const batch = 100_000;
  for (let start = 1; start <= count; start += batch) {
    const end = Math.min(count, start + batch - 1);
    await execute(`insert into profiles (site_id, name, country, region, status, birth_date, gender, is_invisible, is_fictional)
      select case when abs(hashint4(i)) % 3 = 0 then 2 else 1 end,
             'Member ' || i,
             (${countries})[1 + abs(hashint4(i + 1000003)) % 15],
             (${countries})[1 + abs(hashint4(i + 1000003)) % 15] || '-R' || (abs(hashint4(i + 2000003)) % 10),
             case when abs(hashint4(i + 3000003)) % 50 = 0 then 'disabled' else 'active' end,
             date '1950-01-01' + (abs(hashint4(i + 4000003)) % 20000),
             (array['woman','man','nonbinary'])[1 + abs(hashint4(i + 5000003)) % 3],
             (abs(hashint4(i + 6000003)) % 97 = 0),
             (abs(hashint4(i + 7000003)) % 10 = 0)
      from generate_series(${start}, ${end}) as i`);
  }
  await execute('analyze profiles');
}
