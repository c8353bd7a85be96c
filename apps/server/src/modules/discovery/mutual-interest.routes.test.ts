import { autoLikeResponseSchema, memberResponseSchema } from '@amora/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, createMember, createProfile, type Member } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';

/**
 * Mutual interest: search, the match-finder, the swipe game, signup matches, related profiles and the auto-like
 * show a member only profiles of a gender they are looking for that are looking for the member's gender. Each
 * combination below is a viewer and the profiles of their own country and age, each marked shown or not.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

interface Listed {
  label: string;
  gender: string | null;
  sexuality?: string | null;
  lookingFor?: string[] | null;
  shown: boolean;
}

interface Combination {
  viewer: string;
  /** What the viewer says of themselves (PUT /api/profile.php). */
  profile: Record<string, unknown>;
  listed: Listed[];
}

const EVERYONE = ['woman', 'man', 'nonbinary'];

const COMBINATIONS: Combination[] = [
  {
    viewer: 'a man looking for women',
    profile: { gender: 'man', looking_for: ['woman'] },
    listed: [
      { label: 'a woman looking for men', gender: 'woman', lookingFor: ['man'], shown: true },
      { label: 'a woman looking for women', gender: 'woman', lookingFor: ['woman'], shown: false },
      { label: 'a lesbian woman (no answer)', gender: 'woman', sexuality: 'lesbian', shown: false },
      { label: 'a straight woman (no answer)', gender: 'woman', sexuality: 'straight', shown: true },
      { label: 'a bisexual woman (no answer)', gender: 'woman', sexuality: 'bisexual', shown: true },
      { label: 'a woman looking for everyone', gender: 'woman', lookingFor: EVERYONE, shown: true },
      { label: 'a woman who says nothing', gender: 'woman', shown: true },
      { label: 'a man looking for men', gender: 'man', lookingFor: ['man'], shown: false },
      { label: 'a non-binary member looking for men', gender: 'nonbinary', lookingFor: ['man'], shown: false },
      { label: 'a profile without a gender', gender: null, shown: false },
    ],
  },
  {
    viewer: 'a woman looking for women',
    profile: { gender: 'woman', looking_for: ['woman'] },
    listed: [
      { label: 'a lesbian woman (no answer)', gender: 'woman', sexuality: 'lesbian', shown: true },
      { label: 'a woman looking for women and men', gender: 'woman', lookingFor: ['woman', 'man'], shown: true },
      { label: 'a woman looking for men', gender: 'woman', lookingFor: ['man'], shown: false },
      { label: 'a straight woman (no answer)', gender: 'woman', sexuality: 'straight', shown: false },
      { label: 'a man looking for women', gender: 'man', lookingFor: ['woman'], shown: false },
    ],
  },
  {
    viewer: 'a straight woman (no answer)',
    profile: { gender: 'woman', sexuality: 'straight' },
    listed: [
      { label: 'a straight man (no answer)', gender: 'man', sexuality: 'straight', shown: true },
      { label: 'a gay man (no answer)', gender: 'man', sexuality: 'gay', shown: false },
      { label: 'a man looking for women', gender: 'man', lookingFor: ['woman'], shown: true },
      { label: 'a man looking for non-binary members', gender: 'man', lookingFor: ['nonbinary'], shown: false },
      { label: 'a woman looking for women', gender: 'woman', lookingFor: ['woman'], shown: false },
    ],
  },
  {
    viewer: 'a gay man (no answer)',
    profile: { gender: 'man', sexuality: 'gay' },
    listed: [
      { label: 'a gay man (no answer)', gender: 'man', sexuality: 'gay', shown: true },
      { label: 'a man looking for men', gender: 'man', lookingFor: ['man'], shown: true },
      { label: 'a straight man (no answer)', gender: 'man', sexuality: 'straight', shown: false },
      { label: 'a woman looking for men', gender: 'woman', lookingFor: ['man'], shown: false },
    ],
  },
  {
    viewer: 'a non-binary member looking for everyone',
    profile: { gender: 'nonbinary', looking_for: EVERYONE },
    listed: [
      { label: 'a man looking for non-binary members', gender: 'man', lookingFor: ['nonbinary'], shown: true },
      { label: 'a bisexual woman (no answer)', gender: 'woman', sexuality: 'bisexual', shown: true },
      { label: 'a profile without a gender', gender: null, shown: true },
      { label: 'a straight woman (no answer)', gender: 'woman', sexuality: 'straight', shown: false },
      { label: 'a woman looking for men', gender: 'woman', lookingFor: ['man'], shown: false },
    ],
  },
  {
    viewer: 'a member who said nothing of themselves',
    profile: {},
    listed: [
      { label: 'a woman looking for women', gender: 'woman', lookingFor: ['woman'], shown: true },
      { label: 'a straight man (no answer)', gender: 'man', sexuality: 'straight', shown: true },
      { label: 'a profile without a gender', gender: null, shown: true },
    ],
  },
];

/** Each combination its own country, so its profiles come first in every suggestion list of its viewer. */
const COUNTRIES = ['BE', 'FR', 'IT', 'ES', 'AT', 'IE', 'PL', 'CH'];

const ids = (list: { id: number }[]) => list.map((p) => p.id);

COMBINATIONS.forEach((combination, index) => {
  describe(`${combination.viewer}`, () => {
    let viewer: Member;
    const byLabel = new Map<string, number>();
    const country = COUNTRIES[index];
    // Every combination its own age: search by that age finds only its profiles.
    const year = 1950 + index;
    const birthDate = `${year}-03-01`;
    const age = new Date().getUTCFullYear() - year - (new Date().getUTCMonth() < 2 ? 1 : 0);
    const shown = () => combination.listed.filter((l) => l.shown).map((l) => byLabel.get(l.label) as number);
    const hidden = () => combination.listed.filter((l) => !l.shown).map((l) => byLabel.get(l.label) as number);

    beforeAll(async () => {
      viewer = await createMember(t, { dateOfBirth: birthDate, profile: { ...combination.profile, country } });
      for (const listed of combination.listed) {
        const row = await createProfile(t, {
          name: listed.label,
          country,
          birthDate,
          gender: listed.gender,
          sexuality: listed.sexuality ?? null,
          lookingFor: listed.lookingFor ?? null,
          isFictional: true,
        });
        byLabel.set(listed.label, row.id);
      }
    });

    it('search shows exactly the mutual ones', async () => {
      const res = await callAs(t, viewer, 'GET', `/api/search.php?min_age=${age}&max_age=${age}`);
      expect(res.statusCode, res.body).toBe(200);
      const found = ids(res.json().results);
      expect(new Set(found)).toEqual(new Set(shown()));
      expect(res.json().numResults).toBe(shown().length);
    });

    it('the swipe game shows the mutual ones and none of the others', async () => {
      const res = await callAs(t, viewer, 'GET', '/api/swipe-game.php');
      expect(res.statusCode, res.body).toBe(200);
      const cards = ids(res.json().cards);
      for (const id of shown()) expect(cards).toContain(id);
      for (const id of hidden()) expect(cards).not.toContain(id);
    });

    it('signup matches and related profiles leave out the others', async () => {
      const matches = await callAs(t, viewer, 'GET', '/api/signup-matches.php');
      expect(matches.statusCode, matches.body).toBe(200);
      const matched = ids(matches.json().profiles);
      expect(matched.length).toBeGreaterThan(0);
      for (const id of hidden()) expect(matched).not.toContain(id);
      const member = await callAs(t, viewer, 'GET', `/api/member.php?id=${shown()[0]}`);
      expect(member.statusCode, member.body).toBe(200);
      const related = ids(memberResponseSchema.parse(member.json()).related);
      for (const id of hidden()) expect(related).not.toContain(id);
    });

    it('the match-finder suggests the mutual ones, one after another, and none of the others', async () => {
      const seen: number[] = [];
      let next = (await callAs(t, viewer, 'GET', '/api/match-finder.php')).json().profile;
      for (let i = 0; i < 12 && next; i++) {
        seen.push(next.id);
        const res = await callAs(t, viewer, 'POST', '/api/match-finder.php', { action: 'skip', profile_id: next.id });
        expect(res.statusCode, res.body).toBe(200);
        next = res.json().next;
      }
      for (const id of shown()) expect(seen).toContain(id);
      for (const id of hidden()) expect(seen).not.toContain(id);
    });

    it('the auto-like comes only from a mutual fictional profile', async () => {
      const res = await callAs(t, viewer, 'GET', '/api/auto-like.php');
      expect(res.statusCode, res.body).toBe(200);
      const picked = autoLikeResponseSchema.parse(res.json()).profile;
      expect(picked).not.toBeNull();
      // Its own country first: one of this combination's profiles, and a mutual one.
      expect(shown()).toContain(picked?.id);
    });
  });
});
