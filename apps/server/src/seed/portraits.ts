import type { EYE_COLOURS, GENDERS, HAIR_COLOURS } from '@amora/contracts';
import * as avataaars from '@dicebear/avataaars';
import { createAvatar } from '@dicebear/core';
import sharp from 'sharp';

/**
 * Demo portraits drawn from the profile: DiceBear's "Avataaars" style (design by Pablo Stanley, "free for
 * personal and commercial use"; DiceBear's code MIT), installed as an npm package and drawn offline. Everything
 * a portrait shows is chosen here from the profile and a seeded generator, never left to chance inside the
 * library, so the same member gets the same face on every fresh install, and each of their photos shows the same
 * person (only the background, expression and clothes' colour change from photo to photo).
 *
 * What the style cannot show: age other than through grey hair and reading glasses (no wrinkles), and eye
 * colour, which it draws as dark dots: we colour the irises ourselves (see withEyeColour).
 */

type Gender = (typeof GENDERS)[number];
type HairColour = (typeof HAIR_COLOURS)[number];
type EyeColour = (typeof EYE_COLOURS)[number];

export interface PortraitSubject {
  gender: Gender | null;
  age: number;
  hairColour: HairColour | null;
  eyeColour: EyeColour | null;
}

export type AvataaarsOptions = avataaars.Options;
type Top = NonNullable<AvataaarsOptions['top']>[number];

/** Deterministic pseudo-random numbers from a text seed (FNV-1a, then a linear congruential generator). */
function seededRandom(seed: string): () => number {
  let state = 2_166_136_261;
  for (let i = 0; i < seed.length; i++) state = Math.imul(state ^ seed.charCodeAt(i), 16_777_619) >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 4_294_967_296;
  };
}
const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)];

/** Our hair colours in the style's palette (hex without #). 'bald' draws no hair; 'other' is dyed pink. */
export const HAIR_HEX: Record<HairColour, string | null> = {
  black: '17100e', // darker than the style's own black: some haircuts lay a white sheen over it
  brown: '724133',
  blonde: 'd6b370',
  red: 'c93305',
  grey: '9e9e9e',
  white: 'e8e1e1',
  bald: null,
  other: 'f59797',
};

/** Iris colours; 'other' keeps the style's own dark eyes. */
export const EYE_HEX: Record<EyeColour, string | null> = {
  brown: '5b3417',
  blue: '2f7fd1',
  green: '3e8e41',
  grey: '8c99a6',
  hazel: '9a7431',
  other: null,
};

/** Hair styles (no hats or head coverings, which would hide the hair colour). */
const TOPS: Record<Gender, readonly Top[]> = {
  woman: ['bob', 'bun', 'curly', 'curvy', 'longButNotTooLong', 'miaWallace', 'straight01', 'straight02', 'straightAndStrand', 'bigHair'],
  man: ['shortFlat', 'shortRound', 'shortWaved', 'shortCurly', 'theCaesar', 'theCaesarAndSidePart', 'sides', 'frizzle', 'dreads01'],
  nonbinary: ['shaggy', 'shaggyMullet', 'shavedSides', 'bob', 'curly', 'shortCurly', 'frizzle', 'dreads'],
};
/** Human skin tones of the style (its yellow and orange left out), the lighter ones twice for the sites' countries. */
const SKIN = ['614335', 'ae5d29', 'd08b5b', 'edb98a', 'edb98a', 'ffdbb4', 'ffdbb4'] as const;
const BACKGROUNDS = ['b6e3f4', 'c0aede', 'd1d4f9', 'ffd5dc', 'ffdfbf', 'c7ecd2', 'f6e3b4'] as const;
const CLOTHES_COLOURS = [
  '3c4f5c',
  '65c9ff',
  '262e33',
  '5199e4',
  '25557c',
  'e6e6e6',
  '929598',
  'a7ffc4',
  'ff488e',
  'ff5c5c',
  'ffffb1',
] as const;
const CASUAL = ['hoodie', 'shirtCrewNeck', 'shirtScoopNeck', 'shirtVNeck', 'collarAndSweater'] as const;
const SMART = ['blazerAndShirt', 'blazerAndSweater', 'collarAndSweater', 'shirtVNeck'] as const;

/**
 * The style's options for one photo of a member: `memberSeed` fixes the person (hair style, skin, beard,
 * glasses), `photo` (0, 1, 2…) the photo (background, expression, clothes). Every option is a single value.
 */
export function portraitOptions(subject: PortraitSubject, memberSeed: string, photo = 0): AvataaarsOptions {
  const person = seededRandom(memberSeed);
  const shot = seededRandom(`${memberSeed}#${photo}`);
  const gender: Gender = subject.gender ?? 'nonbinary';
  const hair = subject.hairColour ? HAIR_HEX[subject.hairColour] : pick(person, [HAIR_HEX.black, HAIR_HEX.brown]);
  // Bald men and women both lose the hair; a man past fifty may keep it only at the sides.
  let top: Top = pick(person, TOPS[gender]);
  if (gender === 'man' && subject.age >= 50 && person() < 0.3) top = 'sides';
  const skin = pick(person, SKIN);
  const beard =
    gender === 'man' && person() < 0.45 ? pick(person, ['beardLight', 'beardMedium', 'beardMajestic', 'moustacheFancy'] as const) : null;
  // Reading glasses grow likelier with age: 10% under 35, 30% to 50, 55% beyond.
  const glassesChance = subject.age < 35 ? 0.1 : subject.age < 50 ? 0.3 : 0.55;
  const glasses = person() < glassesChance ? pick(person, ['prescription01', 'prescription02', 'round'] as const) : null;
  const clothing = pick(shot, subject.age >= 40 && shot() < 0.6 ? SMART : CASUAL);
  return {
    top: [top],
    topProbability: hair === null ? 0 : 100,
    hairColor: [hair ?? '2c1b18'],
    facialHair: beard ? [beard] : [],
    facialHairProbability: beard ? 100 : 0,
    facialHairColor: [hair ?? pick(person, [HAIR_HEX.black, HAIR_HEX.brown] as string[])],
    accessories: glasses ? [glasses] : [],
    accessoriesProbability: glasses ? 100 : 0,
    accessoriesColor: ['262e33'],
    skinColor: [skin],
    eyes: ['default'],
    eyebrows: [pick(shot, ['defaultNatural', 'flatNatural', 'raisedExcitedNatural'] as const)],
    mouth: [pick(shot, ['smile', 'default', 'twinkle'] as const)],
    clothing: [clothing],
    clothesColor: [pick(shot, CLOTHES_COLOURS)],
    backgroundColor: [pick(shot, BACKGROUNDS)],
  };
}

/** The style's default eyes, two dark dots: the markup withEyeColour replaces (a test pins it). */
export const DEFAULT_EYES =
  '<path d="M36 22a6 6 0 1 1-12 0 6 6 0 0 1 12 0ZM88 22a6 6 0 1 1-12 0 6 6 0 0 1 12 0Z" fill="#000" fill-opacity=".6"/>';

/** Coloured irises with a dark pupil and a highlight, in place of the style's dark dots. */
function withEyeColour(svg: string, eyeColour: EyeColour | null): string {
  const iris = eyeColour ? EYE_HEX[eyeColour] : null;
  if (!iris) return svg;
  const eye = (cx: number) =>
    `<circle cx="${cx}" cy="22" r="6.5" fill="#${iris}"/><circle cx="${cx}" cy="22" r="3.2" fill="#1b1b1b"/><circle cx="${cx + 1.8}" cy="20.2" r="1.3" fill="#fff" fill-opacity=".85"/>`;
  return svg.replace(DEFAULT_EYES, eye(30) + eye(82));
}

/** One photo's SVG: the avatar (square) standing at the foot of a 4:5 portrait on its background colour. */
export function portraitSvg(subject: PortraitSubject, memberSeed: string, photo = 0): string {
  const options = portraitOptions(subject, memberSeed, photo);
  const avatar = withEyeColour(
    createAvatar(avataaars, { ...options, backgroundColor: undefined, seed: memberSeed }).toString(),
    subject.eyeColour,
  );
  const background = options.backgroundColor?.[0] ?? 'b6e3f4';
  const placed = avatar.replace('<svg ', '<svg x="0" y="150" width="600" height="600" ');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="750" viewBox="0 0 600 750"><rect width="600" height="750" fill="#${background}"/>${placed}</svg>`;
}

/** The photo as the upload pipeline takes it (JPEG). */
export async function drawPortrait(subject: PortraitSubject, memberSeed: string, photo = 0): Promise<Buffer> {
  return sharp(Buffer.from(portraitSvg(subject, memberSeed, photo)))
    .jpeg({ quality: 85 })
    .toBuffer();
}
