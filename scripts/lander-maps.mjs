// The maplanding lander's maps, drawn once from shipped geodata and committed (run `node scripts/lander-maps.mjs`
// after changing a region): Natural Earth's country outlines at 1:50m (npm `world-atlas`, public domain), turned
// into GeoJSON (`topojson-client`) and drawn in a Mercator projection (`d3-geo`) as one small SVG per region. The
// browser downloads only the SVG of its region (a hashed, cached, precompressed asset) and places the pins with the
// projection's three numbers (maplanding-regions.ts); no world map, no tiles, nothing from another host.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { geoMercator, geoStream } from 'd3-geo';
import { feature, mesh } from 'topojson-client';
import { presimplify, simplify } from 'topojson-simplify';

const OUT = fileURLToPath(new URL('../apps/web/src/features/landers/designs/', import.meta.url));

/** The regions a lander can show: the frame of each (degrees) and its drawn width (SVG units). */
const REGIONS = [
  { name: 'europe', west: -12, east: 34, south: 34.5, north: 66, width: 1000 },
  { name: 'north-america', west: -130, east: -55, south: 16, north: 60, width: 1000 },
  { name: 'oceania', west: 111, east: 180, south: -48, north: -9, width: 1000 },
];

const LAND = '#fbf7f5';
const BORDER = '#dcc8cd';

/**
 * Visvalingam's simplification of the outlines before they are drawn (`topojson-simplify`): a point goes when the
 * triangle it makes with its neighbours is smaller than this (square degrees; in Europe's map about 3 SVG units², a
 * point 1 unit off the line between neighbours 6 apart). Simplifying the topology keeps a border shared by two countries the same line for both, so
 * land and borders still meet. Europe's map goes from 50 to 30 KB (Oceania's stays above Vite's 4 KB inlining
 * limit, so no map enters the JavaScript) without a visible change at the closest zoom.
 */
const MIN_WEIGHT = 0.004;

const topology = simplify(
  presimplify(JSON.parse(await readFile(fileURLToPath(import.meta.resolve('world-atlas/countries-50m.json')), 'utf8'))),
  MIN_WEIGHT,
);
const countries = feature(topology, topology.objects.countries);
const borders = mesh(topology, topology.objects.countries, (a, b) => a !== b);

/** Points closer than this to the last kept one are dropped (SVG units, about a pixel at full width): repeats after rounding. */
const TOLERANCE = 1;
/** Islands smaller than this (bounding box, units²) are left out. */
const MIN_AREA = 6;

/**
 * The SVG path of a GeoJSON object in `projection`, lighter than d3's geoPath: integer coordinates, relative moves,
 * points within TOLERANCE of the last kept one dropped, and tiny islands left out.
 */
function draw(projection, object, closed) {
  const rings = [];
  let ring = null;
  const sink = {
    point(x, y) {
      ring?.push([Math.round(x), Math.round(y)]);
    },
    lineStart() {
      ring = [];
    },
    lineEnd() {
      if (ring) rings.push(ring);
      ring = null;
    },
    polygonStart() {},
    polygonEnd() {},
    sphere() {},
  };
  const stream = projection.stream(sink);
  for (const f of object.type === 'FeatureCollection' ? object.features : [object]) {
    geoStream(f, stream);
  }
  let d = '';
  for (const points of rings) {
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    const area = (Math.max(...xs) - Math.min(...xs)) * (Math.max(...ys) - Math.min(...ys));
    if (closed && area < MIN_AREA) continue;
    const kept = [points[0]];
    for (const p of closed ? points.slice(1) : points.slice(1, -1)) {
      const last = kept[kept.length - 1];
      if (Math.hypot(p[0] - last[0], p[1] - last[1]) >= TOLERANCE) kept.push(p);
    }
    if (!closed && points.length > 1) kept.push(points[points.length - 1]);
    if (kept.length < (closed ? 3 : 2)) continue;
    d += `M${kept[0][0]},${kept[0][1]}`;
    let prev = kept[0];
    for (const p of kept.slice(1)) {
      const dx = p[0] - prev[0];
      const dy = p[1] - prev[1];
      if (dx === 0 && dy === 0) continue;
      d += `l${dx}${dy < 0 ? '' : ','}${dy}`;
      prev = p;
    }
    if (closed) d += 'z';
  }
  return d;
}

const round = (n) => Math.round(n * 10000) / 10000;
const regionsOut = {};
for (const region of REGIONS) {
  // Scale so the frame's west–east span is `width` units; the height follows from Mercator.
  const lambda = (deg) => (deg * Math.PI) / 180;
  const mercY = (lat) => Math.log(Math.tan(Math.PI / 4 + lambda(lat) / 2));
  const scale = region.width / (lambda(region.east) - lambda(region.west));
  const height = Math.round(scale * (mercY(region.north) - mercY(region.south)));
  // d3's Mercator: x = tx + scale·λ, y = ty − scale·ln(tan(π/4 + φ/2)).
  const tx = -scale * lambda(region.west);
  const ty = scale * mercY(region.north);
  const projection = geoMercator()
    .scale(scale)
    .translate([tx, ty])
    .clipExtent([
      [-2, -2],
      [region.width + 2, height + 2],
    ]);
  const land = draw(projection, countries, true);
  const lines = draw(projection, borders, false);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${region.width} ${height}" width="${region.width}" height="${height}">` +
    `<title>${region.name}</title>` +
    `<path fill="${LAND}" d="${land}"/>` +
    `<path fill="none" stroke="${BORDER}" stroke-width="1.1" stroke-linejoin="round" d="${lines}"/>` +
    '</svg>\n';
  await writeFile(`${OUT}maplanding-maps/${region.name}.svg`, svg);
  regionsOut[region.name] = {
    west: region.west,
    east: region.east,
    south: region.south,
    north: region.north,
    width: region.width,
    height,
    scale: round(scale),
    tx: round(tx),
    ty: round(ty),
  };
  console.log(`${region.name}: ${region.width}×${height}, ${(svg.length / 1024).toFixed(1)} KB`);
}

/** The regions as the repository's formatter writes an object literal. */
function objectLiteral(regions) {
  return Object.entries(regions)
    .map(([name, region]) => {
      const key = /^[a-z]+$/.test(name) ? name : `'${name}'`;
      const fields = Object.entries(region).map(([k, v]) => `    ${k}: ${v},`);
      return `  ${key}: {\n${fields.join('\n')}\n  },`;
    })
    .join('\n');
}

const module = `// Generated by scripts/lander-maps.mjs from Natural Earth (npm world-atlas): do not edit by hand.
// Each region's frame in degrees, its SVG's size, and its Mercator projection: x = tx + scale·λ, y = ty − scale·ln(tan(π/4 + φ/2)).
export const MAP_REGIONS = {
${objectLiteral(regionsOut)}
} as const;
`;
await writeFile(`${OUT}maplanding-regions.ts`, module);
