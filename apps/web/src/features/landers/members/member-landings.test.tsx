import { LOCALES, type MemberLandingProfile } from '@amora/contracts/core';
import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { landingMessageFor } from '@/shared/profiles/landing-message';
import { answer } from '@/testing/contract';
import { settingsFixture } from '@/testing/fixtures';
import { renderLander } from '@/testing/landers';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/server';
import { text } from '@/testing/text';
import { MemberLanding } from './landing';
import { MemberLanding2 } from './landing2';
import { MemberLanding3 } from './landing3';
import type { MemberLandingProps } from './member-landing-types';

const profile: MemberLandingProfile = {
  id: 7,
  name: 'Fiona',
  age: 34,
  city: 'Utrecht',
  country: 'NL',
  photo: { src: '/api/lander-photo.php?id=70&w=540', srcSet: '/api/lander-photo.php?id=70&w=360 360w', width: 540, height: 675 },
  facts: { hair_colour: 'blonde', eye_colour: 'blue' },
  is_fictional: true,
};
const QUERY = '?network=test&sub1=x';
const LAYOUTS = [
  ['landing', MemberLanding],
  ['landing2', MemberLanding2],
  ['landing3', MemberLanding3],
] as const;
const props = (over: Partial<MemberLandingProps> = {}): MemberLandingProps => ({
  profile,
  niche: 1,
  canSignUp: true,
  query: QUERY,
  ...over,
});

describe.each(LAYOUTS)('member %s', (_layout, Layout) => {
  it('shows the profile (photo, name, age, city, facts) with its fictional label, and leads to its signup with the tracking query', async () => {
    await renderLander(<Layout {...props()} />);
    const main = await screen.findByRole('main');
    expect(within(main).getAllByText(`${profile.name}, ${profile.age}`)[0]).toBeVisible();
    expect(within(main).getAllByText(profile.city as string)[0]).toBeVisible();
    expect(within(main).getAllByRole('img', { name: text('landers:member.photoAlt', { name: 'Fiona' }) })[0]).toHaveAttribute(
      'src',
      profile.photo?.src,
    );
    expect(within(main).getAllByRole('img', { name: 'fictional profile' })[0]).toBeVisible();
    const facts = within(main).getByRole('list', { name: text('landers:member.factsLabel', { name: 'Fiona' }) });
    // A colour comes with its attribute's name.
    const fact = (key: string, value: string) =>
      text('landers:member.fact', { label: text(`profile.attributes.${key}.label`), value: text(`profile.attributes.${key}.${value}`) });
    expect(within(facts).getByText(fact('hair_colour', 'blonde'))).toBeVisible();
    expect(within(facts).getByText(fact('eye_colour', 'blue'))).toBeVisible();
    const cta = screen.getByTestId('member-landing-cta');
    expect(cta).toHaveAttribute('href', `/members/7/signup${QUERY}`);
    expect(screen.queryByTestId('member-landing-login')).toBeNull();
  });

  it('keeps the page language in its signup link', async () => {
    await renderLander(<Layout {...props()} />, { locale: 'de' });
    expect(await screen.findByTestId('member-landing-cta')).toHaveAttribute('href', `/de/members/7/signup${QUERY}`);
  });

  it('offers the login instead when this visitor may not sign up', async () => {
    await renderLander(<Layout {...props({ canSignUp: false })} />, { settings: settingsFixture({ signups: 'with_trafficsource' }) });
    expect(await screen.findByTestId('signups-closed')).toHaveTextContent(text('signup.closed', { site: 'Amora' }));
    expect(screen.getByTestId('member-landing-login')).toHaveAttribute('href', '/login');
    expect(screen.queryByTestId('member-landing-cta')).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('shows a drawn placeholder for a profile without a photo, and no facts list without facts', async () => {
    await renderLander(<Layout {...props({ profile: { ...profile, photo: null, facts: {}, city: null } })} />);
    expect((await screen.findAllByTestId('photo-placeholder')).length).toBeGreaterThan(0);
    expect(screen.queryByRole('list', { name: text('landers:member.factsLabel', { name: 'Fiona' }) })).toBeNull();
  });

  it.each(LOCALES)('is written in %s, with no raw key', async (locale) => {
    const { container, unmount } = await renderLander(<Layout {...props({ niche: 6 })} />, { locale });
    await screen.findByRole('main');
    expect(container.textContent).not.toMatch(/\b(member|niche|home|signup|profile)\.[a-z]\w*/i);
    expect(container.innerHTML).not.toMatch(/(alt|aria-label|placeholder)="[a-z]+\.[a-z]/i);
    unmount();
  });
});

describe('member landing (teaser)', () => {
  it('has one heading of the page: the name and age', async () => {
    await renderLander(<MemberLanding {...props()} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Fiona, 34' })).toBeVisible();
    expect(screen.getByRole('link', { name: text('landers:member.cta', { name: 'Fiona' }) })).toBeVisible();
  });
});

describe('member landing2 (split)', () => {
  it("speaks to the slug's niche and lists the three real steps to reach the profile", async () => {
    await renderLander(<MemberLanding2 {...props({ niche: 4 })} />);
    expect(await screen.findByRole('heading', { level: 1, name: text('landers:member.split.title', { name: 'Fiona' }) })).toBeVisible();
    expect(screen.getByText(text('landers:niche.4.label'))).toBeVisible();
    expect(screen.getByText(text('landers:niche.4.pitch'))).toBeVisible();
    const steps = within(screen.getByRole('list', { name: text('landers:member.split.stepsTitle', { name: 'Fiona' }) }));
    expect(steps.getAllByRole('listitem').map((li) => li.textContent?.replace(/^\d/, ''))).toEqual([
      text('landers:member.split.stepSignup'),
      text('landers:member.split.stepWrite', { name: 'Fiona' }),
      text('landers:member.split.stepConfirm', { name: 'Fiona' }),
    ]);
  });
});

describe('member landing3 (conversation)', () => {
  it('says the conversation is empty, and an opener the visitor picks goes to the signup with them', async () => {
    const { user } = await renderLander(<MemberLanding3 {...props()} />);
    expect(await screen.findByRole('heading', { level: 1, name: text('landers:member.chat.title', { name: 'Fiona' }) })).toBeVisible();
    expect(screen.getByText(text('landers:member.chat.empty'))).toBeVisible();
    const opener = text('landers:member.chat.ideaCity', { name: 'Fiona', city: 'Utrecht' });
    await user.click(screen.getByRole('button', { name: opener }));
    const field = screen.getByRole('textbox', { name: text('landers:member.chat.label', { name: 'Fiona' }) });
    expect(field).toHaveValue(opener);
    await user.type(field, ' See you!');
    const send = screen.getByRole('link', { name: text('landers:member.chat.send') });
    expect(send).toHaveAttribute('href', `/members/7/signup${QUERY}`);
    // The link leaves the page (happy-dom does not navigate): the message is kept for the signup first.
    send.addEventListener('click', (event) => event.preventDefault());
    await user.click(send);
    expect(landingMessageFor(7)).toBe(`${opener} See you!`);
    expect(landingMessageFor(8)).toBe('');
  });

  it('offers no opener about a city the profile does not have', async () => {
    await renderLander(<MemberLanding3 {...props({ profile: { ...profile, city: null } })} />);
    await screen.findByRole('main');
    expect(screen.getAllByRole('button')).toHaveLength(2);
  });
});

describe('a member landing inside the app (a link within the app leads there)', () => {
  it('shows the landing of the profile the address names, in the lander layout', async () => {
    server.use(answer('GET /api/member-landing.php', () => ({ profile })));
    await renderApp('/members/7/landing2/eng?network=test');
    expect(await screen.findByRole('heading', { level: 1, name: text('landers:member.split.title', { name: 'Fiona' }) })).toBeVisible();
    expect(screen.getByTestId('member-landing-cta')).toHaveAttribute('href', '/members/7/signup?network=test');
  });

  it('is the not-found page for a profile no landing may show', async () => {
    server.use(http.get('*/api/member-landing.php', () => HttpResponse.json({ error: 'not_found', message: 'x' }, { status: 404 })));
    await renderApp('/members/8/landing');
    expect(await screen.findByText(text('errors.notFound'))).toBeVisible();
  });

  it('is the not-found page for a slug that does not exist', async () => {
    await renderApp('/members/7/landing3/xx');
    expect(await screen.findByText(text('errors.notFound'))).toBeVisible();
  });
});
