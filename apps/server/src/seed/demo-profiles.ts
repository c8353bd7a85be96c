import { creditLedger, type Database, profiles, sites, users } from '@amora/db';
import { hashPassword } from '../lib/passwords';
import { addPhotoForSeed, type PhotoContext } from '../modules/photos/photos.service';
import { drawPortrait, type PortraitSubject } from './portraits';

/** Deterministic pseudo-random numbers, so every fresh install gets the same demo members. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 4_294_967_296;
  };
}

const NAMES: Record<string, { woman: string[]; man: string[] }> = {
  NL: { woman: ['Sanne', 'Lotte', 'Femke', 'Anouk', 'Eva', 'Iris'], man: ['Daan', 'Bram', 'Lars', 'Joost', 'Ruben', 'Thijs'] },
  BE: { woman: ['Lien', 'Elise', 'Manon', 'Hanne', 'Camille'], man: ['Wout', 'Arne', 'Louis', 'Jonas', 'Maxime'] },
  FR: { woman: ['Chloé', 'Camille', 'Léa', 'Manon', 'Inès'], man: ['Hugo', 'Lucas', 'Théo', 'Antoine', 'Julien'] },
  IT: { woman: ['Giulia', 'Chiara', 'Sofia', 'Francesca', 'Elena'], man: ['Luca', 'Marco', 'Matteo', 'Davide', 'Andrea'] },
  ES: { woman: ['Lucía', 'Carmen', 'Paula', 'Marta', 'Elena'], man: ['Javier', 'Pablo', 'Sergio', 'Diego', 'Álvaro'] },
  DE: { woman: ['Anna', 'Lena', 'Julia', 'Katrin', 'Sabine', 'Miriam'], man: ['Jonas', 'Felix', 'Tobias', 'Markus', 'Stefan', 'Jan'] },
  AT: { woman: ['Magdalena', 'Theresa', 'Verena', 'Sophie'], man: ['Florian', 'Lukas', 'Matthias', 'Christoph'] },
  IE: { woman: ['Aoife', 'Niamh', 'Siobhán', 'Ciara'], man: ['Cian', 'Oisín', 'Seán', 'Conor'] },
  GB: { woman: ['Olivia', 'Amelia', 'Emily', 'Hannah', 'Grace'], man: ['Oliver', 'Harry', 'George', 'James', 'Tom'] },
  US: { woman: ['Madison', 'Ashley', 'Jessica', 'Taylor', 'Brooke'], man: ['Tyler', 'Brandon', 'Josh', 'Ryan', 'Kyle'] },
  CA: { woman: ['Chloe', 'Maya', 'Léa', 'Avery'], man: ['Liam', 'Noah', 'Étienne', 'Owen'] },
  PL: { woman: ['Zofia', 'Katarzyna', 'Agnieszka', 'Magda'], man: ['Jakub', 'Piotr', 'Tomasz', 'Kacper'] },
  AU: { woman: ['Matilda', 'Isla', 'Ruby', 'Zoe'], man: ['Jack', 'Cooper', 'Riley', 'Mason'] },
  NZ: { woman: ['Aroha', 'Mia', 'Kate', 'Ngaio'], man: ['Nikau', 'Finn', 'Sam', 'Tama'] },
  CH: { woman: ['Léonie', 'Nina', 'Laura', 'Alessia'], man: ['Noah', 'Luca', 'Nico', 'Dario'] },
};

/** A few real cities per country, with their centres (what profiles store; never a member's own position). */
const CITIES: Record<string, [string, string, number, number][]> = {
  NL: [
    ['Amsterdam', 'NL-NH', 52.37, 4.89],
    ['Rotterdam', 'NL-ZH', 51.92, 4.48],
    ['Utrecht', 'NL-UT', 52.09, 5.12],
    ['Groningen', 'NL-GR', 53.22, 6.57],
  ],
  BE: [
    ['Brussels', 'BE-BRU', 50.85, 4.35],
    ['Antwerp', 'BE-VLG', 51.22, 4.4],
    ['Ghent', 'BE-VLG', 51.05, 3.72],
  ],
  FR: [
    ['Paris', 'FR-IDF', 48.86, 2.35],
    ['Lyon', 'FR-ARA', 45.76, 4.84],
    ['Marseille', 'FR-PAC', 43.3, 5.37],
    ['Bordeaux', 'FR-NAQ', 44.84, -0.58],
  ],
  IT: [
    ['Roma', 'IT-62', 41.9, 12.5],
    ['Milano', 'IT-25', 45.46, 9.19],
    ['Napoli', 'IT-72', 40.85, 14.27],
    ['Torino', 'IT-21', 45.07, 7.69],
  ],
  ES: [
    ['Madrid', 'ES-M', 40.42, -3.7],
    ['Barcelona', 'ES-B', 41.39, 2.17],
    ['Valencia', 'ES-V', 39.47, -0.38],
    ['Sevilla', 'ES-SE', 37.39, -5.98],
  ],
  DE: [
    ['Berlin', 'DE-BE', 52.52, 13.4],
    ['Hamburg', 'DE-HH', 53.55, 9.99],
    ['München', 'DE-BY', 48.14, 11.58],
    ['Köln', 'DE-NW', 50.94, 6.96],
  ],
  AT: [
    ['Wien', 'AT-9', 48.21, 16.37],
    ['Graz', 'AT-6', 47.07, 15.44],
    ['Salzburg', 'AT-5', 47.81, 13.04],
  ],
  IE: [
    ['Dublin', 'IE-D', 53.35, -6.26],
    ['Cork', 'IE-CO', 51.9, -8.47],
    ['Galway', 'IE-G', 53.27, -9.05],
  ],
  GB: [
    ['London', 'GB-LND', 51.51, -0.13],
    ['Manchester', 'GB-MAN', 53.48, -2.24],
    ['Edinburgh', 'GB-EDH', 55.95, -3.19],
    ['Cardiff', 'GB-CRF', 51.48, -3.18],
  ],
  US: [
    ['New York', 'US-NY', 40.71, -74.01],
    ['Chicago', 'US-IL', 41.88, -87.63],
    ['Austin', 'US-TX', 30.27, -97.74],
    ['Seattle', 'US-WA', 47.61, -122.33],
  ],
  CA: [
    ['Toronto', 'CA-ON', 43.65, -79.38],
    ['Montréal', 'CA-QC', 45.5, -73.57],
    ['Vancouver', 'CA-BC', 49.28, -123.12],
  ],
  PL: [
    ['Warszawa', 'PL-14', 52.23, 21.01],
    ['Kraków', 'PL-12', 50.06, 19.94],
    ['Gdańsk', 'PL-22', 54.35, 18.65],
  ],
  AU: [
    ['Sydney', 'AU-NSW', -33.87, 151.21],
    ['Melbourne', 'AU-VIC', -37.81, 144.96],
    ['Brisbane', 'AU-QLD', -27.47, 153.03],
  ],
  NZ: [
    ['Auckland', 'NZ-AUK', -36.85, 174.76],
    ['Wellington', 'NZ-WGN', -41.29, 174.78],
    ['Christchurch', 'NZ-CAN', -43.53, 172.64],
  ],
  CH: [
    ['Zürich', 'CH-ZH', 47.38, 8.54],
    ['Genève', 'CH-GE', 46.2, 6.15],
    ['Bern', 'CH-BE', 46.95, 7.45],
    ['Lugano', 'CH-TI', 46.0, 8.95],
  ],
};

/** Orientations that fit each gender, so demo profiles read like real ones. */
const SEXUALITY_BY_GENDER: Record<'woman' | 'man' | 'nonbinary', string[]> = {
  woman: ['straight', 'straight', 'straight', 'lesbian', 'bisexual'],
  man: ['straight', 'straight', 'straight', 'gay', 'bisexual'],
  nonbinary: ['bisexual', 'pansexual', 'other'],
};

const ABOUT = [
  'Coffee first, adventures second. I love long walks, good books and people who make me laugh.',
  'Weekend hiker, weekday dreamer. Looking for someone to share dinners and road trips with.',
  'Music lover and amateur cook. Tell me your favourite song and I will tell you mine.',
  'New in town and curious about everything. Let us see where a chat takes us.',
  'Honest, relaxed and a little bit nerdy. Dogs over cats, but I can be convinced.',
  'I enjoy city breaks, live concerts and lazy Sunday mornings.',
];
const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)];

/** The demo members of a first start. */
const DEMO_MEMBERS = 300;
/** Where Herzklopfen's nine fictional women of 35–55 (its niche, MILF) live: mostly its default country. */
const HERZ_NICHE_COUNTRIES = ['DE', 'DE', 'AT', 'CH', 'DE', 'NL', 'BE', 'DE', 'AT'];

/**
 * A few hundred demo members across the 15 target countries and both demo sites: all genders and ages, some
 * premium, some fictional (flagged, without an account), each with one to three portraits drawn to match the
 * profile: gender, age, hair and eye colour (portraits.ts). `onPortrait` hears of each portrait stored (and of
 * none yet, before the first), with how many there are to draw: the start's progress line.
 */
export async function seedDemoProfiles(
  ctx: PhotoContext,
  count = DEMO_MEMBERS,
  onPortrait?: (drawn: number, total: number) => void,
): Promise<number> {
  const db: Database = ctx.db;
  const allSites = await db.select().from(sites);
  const amora = allSites.find((s) => s.domain === 'amora.localhost');
  const herz = allSites.find((s) => s.domain === 'herzklopfen.localhost');
  if (!amora || !herz) return 0;
  const passwordHash = await hashPassword('amora-demo-2026');
  const r = random(20261122);
  // Each balance comes through the ledger as every change of credits does, so the ledger sums to it.
  const openingBalances: (typeof creditLedger.$inferInsert)[] = [];
  const jobs: { profileId: number; userId: number | null; subject: PortraitSubject; seed: string; photos: number }[] = [];

  for (let i = 0; i < count; i++) {
    const site = i % 3 === 2 ? herz : amora;
    const country = pick(r, site.countries);
    const gender = site === herz && r() < 0.7 ? 'woman' : pick(r, ['woman', 'man', 'woman', 'man', 'nonbinary'] as const);
    const names = NAMES[country] ?? NAMES.GB;
    const name = gender === 'nonbinary' ? pick(r, [...names.woman, ...names.man]) : pick(r, names[gender]);
    const minAge = site === herz ? 35 : 18;
    const age = minAge + Math.floor(r() * (site === herz ? 35 : 50));
    const year = 2026 - age;
    const birthDate = `${year}-${String(1 + Math.floor(r() * 12)).padStart(2, '0')}-${String(1 + Math.floor(r() * 28)).padStart(2, '0')}`;
    const [city, region, lat, lon] = pick(r, CITIES[country]);
    const isFictional = r() < 0.1;
    let userId: number | null = null;
    if (!isFictional) {
      const [user] = await db
        .insert(users)
        .values({
          siteId: site.id,
          email: `member${i + 1}@${site.domain.replace('.localhost', '.example')}`,
          passwordHash,
          status: 'confirmed',
          language: pick(r, site.languages),
          dateOfBirth: birthDate,
          credits: Math.floor(r() * 60),
          paidUser: r() < 0.25,
          confirmedAt: new Date(),
        })
        .returning({ id: users.id, credits: users.credits });
      userId = user.id;
      if (user.credits > 0)
        openingBalances.push({
          userId: user.id,
          siteId: site.id,
          delta: user.credits,
          balanceAfter: user.credits,
          reason: 'demo',
          idempotencyKey: `demo:${user.id}`,
        });
    }
    // Drawn in this order (sexuality, hair, eyes) so every fresh install gets the same members as before.
    const sexuality = pick(r, SEXUALITY_BY_GENDER[gender]);
    let hairColour = pick(r, ['black', 'brown', 'blonde', 'red', 'grey'] as const);
    // Grey hair from about 45 on: a younger member drawn grey gets a colour of their own instead (no draw of
    // `r`, so everything after it stays as it was).
    if (hairColour === 'grey' && age < 45) hairColour = (['black', 'brown', 'blonde', 'red'] as const)[i % 4];
    const eyeColour = pick(r, ['brown', 'blue', 'green', 'grey', 'hazel'] as const);
    const [profile] = await db
      .insert(profiles)
      .values({
        userId,
        siteId: site.id,
        name,
        country,
        status: 'active',
        isFictional,
        birthDate,
        gender,
        sexuality,
        hairColour,
        eyeColour,
        bodyType: pick(r, ['slim', 'athletic', 'average', 'curvy', 'plus']),
        relationshipStatus: pick(r, ['single', 'single', 'divorced', 'widowed', 'separated']),
        interests: site.interests.filter(() => r() < 0.25),
        about: pick(r, ABOUT),
        region,
        city,
        lat,
        lon,
      })
      .returning({ id: profiles.id });
    jobs.push({
      profileId: profile.id,
      userId,
      subject: { gender, age, hairColour, eyeColour },
      seed: `amora-demo-${i + 1}`,
      photos: 1 + Math.floor(r() * r() * 3),
    });
  }

  // Herzklopfen's niche is MILF: its landers show its fictional women of 35–55 (landers.service), and the draw
  // above gives it only a few fictional profiles, most not of its niche. These fill a lander. A random stream of
  // their own, so the members above stay as every install had them.
  if (count >= DEMO_MEMBERS) {
    const m = random(20261129);
    const named: Record<string, number> = {};
    for (const [k, country] of HERZ_NICHE_COUNTRIES.entries()) {
      const age = 37 + 2 * k;
      named[country] = (named[country] ?? -1) + 1;
      const birthDate = `${2026 - age}-${String(1 + Math.floor(m() * 12)).padStart(2, '0')}-${String(1 + Math.floor(m() * 28)).padStart(2, '0')}`;
      const [city, region, lat, lon] = pick(m, CITIES[country]);
      const hairColour = pick(
        m,
        age >= 45 ? (['brown', 'blonde', 'red', 'grey'] as const) : (['black', 'brown', 'blonde', 'red'] as const),
      );
      const eyeColour = pick(m, ['brown', 'blue', 'green', 'grey', 'hazel'] as const);
      const [profile] = await db
        .insert(profiles)
        .values({
          userId: null,
          siteId: herz.id,
          name: NAMES[country].woman[named[country] % NAMES[country].woman.length],
          country,
          status: 'active',
          isFictional: true,
          birthDate,
          gender: 'woman',
          sexuality: pick(m, ['straight', 'straight', 'bisexual']),
          hairColour,
          eyeColour,
          bodyType: pick(m, ['slim', 'athletic', 'average', 'curvy', 'plus']),
          relationshipStatus: pick(m, ['single', 'divorced', 'widowed', 'separated']),
          interests: herz.interests.filter(() => m() < 0.25),
          about: pick(m, ABOUT),
          region,
          city,
          lat,
          lon,
        })
        .returning({ id: profiles.id });
      jobs.push({
        profileId: profile.id,
        userId: null,
        subject: { gender: 'woman', age, hairColour, eyeColour },
        seed: `amora-demo-herz-${k + 1}`,
        photos: 1 + Math.floor(m() * 2),
      });
    }
  }

  if (openingBalances.length > 0) await db.insert(creditLedger).values(openingBalances);

  // Two at a time: sharp already uses the other core.
  const portraits = jobs.reduce((sum, job) => sum + job.photos, 0);
  let drawn = 0;
  onPortrait?.(0, portraits);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      for (let p = 0; p < job.photos; p++) {
        const buffer = await drawPortrait(job.subject, job.seed, p);
        await addPhotoForSeed(ctx, { profileId: job.profileId, userId: job.userId, buffer });
        onPortrait?.(++drawn, portraits);
      }
    }
  };
  await Promise.all([worker(), worker()]);
  return jobs.length;
}
