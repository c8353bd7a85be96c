import { EYE_COLOURS, GENDERS, HAIR_COLOURS } from '@amora/contracts';
import * as avataaars from '@dicebear/avataaars';
import { createAvatar } from '@dicebear/core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DEFAULT_EYES, drawPortrait, EYE_HEX, HAIR_HEX, type PortraitSubject, portraitOptions, portraitSvg } from './portraits';

const subject = (over: Partial<PortraitSubject> = {}): PortraitSubject => ({
  gender: 'woman',
  age: 30,
  hairColour: 'red',
  eyeColour: 'green',
  ...over,
});

/** What makes the person (the same on every photo of a member). */
const person = (o: ReturnType<typeof portraitOptions>) => ({
  top: o.top,
  topProbability: o.topProbability,
  hairColor: o.hairColor,
  skinColor: o.skinColor,
  facialHair: o.facialHair,
  accessories: o.accessories,
});

describe('demo portraits', () => {
  it('maps every hair and eye colour of the profile values', () => {
    for (const hair of HAIR_COLOURS) expect(HAIR_HEX).toHaveProperty(hair);
    for (const eye of EYE_COLOURS) expect(EYE_HEX).toHaveProperty(eye);
  });

  it('draws the profile’s hair colour, and no hair for a bald member', () => {
    for (const hair of ['black', 'brown', 'blonde', 'red', 'grey', 'white', 'other'] as const) {
      const o = portraitOptions(subject({ hairColour: hair }), 'm1');
      expect(o.hairColor).toEqual([HAIR_HEX[hair]]);
      expect(o.topProbability).toBe(100);
    }
    expect(portraitOptions(subject({ hairColour: 'red' }), 'm1').hairColor).toEqual(['c93305']);
    expect(portraitOptions(subject({ gender: 'man', hairColour: 'bald' }), 'm1').topProbability).toBe(0);
  });

  it('gives women and non-binary members no beard, and men a man’s haircut', () => {
    const womenTops = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const woman = portraitOptions(subject({ gender: 'woman' }), `w${i}`);
      expect(woman.facialHairProbability).toBe(0);
      womenTops.add(woman.top?.[0] ?? '');
      expect(portraitOptions(subject({ gender: 'nonbinary' }), `n${i}`).facialHairProbability).toBe(0);
      const man = portraitOptions(subject({ gender: 'man', age: 30 }), `m${i}`);
      expect([
        'shortFlat',
        'shortRound',
        'shortWaved',
        'shortCurly',
        'theCaesar',
        'theCaesarAndSidePart',
        'sides',
        'frizzle',
        'dreads01',
      ]).toContain(man.top?.[0]);
    }
    expect(womenTops.has('shortFlat')).toBe(false);
    for (const gender of GENDERS) expect(portraitOptions(subject({ gender }), 'x').top).toHaveLength(1);
  });

  it('shows age through reading glasses, likelier past fifty', () => {
    const withGlasses = (age: number) =>
      Array.from({ length: 400 }, (_, i) => portraitOptions(subject({ age }), `g${i}`)).filter((o) => o.accessoriesProbability === 100)
        .length;
    expect(withGlasses(25)).toBeLessThan(withGlasses(60));
  });

  it('colours the irises with the eye colour, and keeps the style’s eyes for “other”', () => {
    // The markup replaced must still be what the style draws (a new version of the package would fail here).
    expect(createAvatar(avataaars, { seed: 'x', eyes: ['default'] }).toString()).toContain(DEFAULT_EYES);
    const blue = portraitSvg(subject({ eyeColour: 'blue' }), 'm1');
    expect(blue).not.toContain(DEFAULT_EYES);
    expect(blue).toContain(`fill="#${EYE_HEX.blue}"`);
    expect(portraitSvg(subject({ eyeColour: 'other' }), 'm1')).toContain(DEFAULT_EYES);
  });

  it('is deterministic per member, and every photo of a member shows the same person', () => {
    expect(portraitSvg(subject(), 'amora-demo-7', 1)).toBe(portraitSvg(subject(), 'amora-demo-7', 1));
    expect(portraitOptions(subject(), 'amora-demo-7', 0)).toEqual(portraitOptions(subject(), 'amora-demo-7', 0));
    expect(person(portraitOptions(subject(), 'amora-demo-7', 0))).toEqual(person(portraitOptions(subject(), 'amora-demo-7', 2)));
    // Different members look different.
    const faces = new Set(Array.from({ length: 30 }, (_, i) => JSON.stringify(person(portraitOptions(subject(), `amora-demo-${i}`)))));
    expect(faces.size).toBeGreaterThan(15);
  });

  it('renders a 600×750 JPEG, the same bytes every time', async () => {
    const a = await drawPortrait(subject(), 'amora-demo-3', 0);
    const b = await drawPortrait(subject(), 'amora-demo-3', 0);
    expect(a.equals(b)).toBe(true);
    const meta = await sharp(a).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 600, 750]);
  });
});
