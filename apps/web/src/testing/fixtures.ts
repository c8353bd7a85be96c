import {
  type CompanyInfo,
  companyInfoSchema,
  type LikesResponse,
  likesResponseSchema,
  type Message,
  type RegionsResponse,
  regionsResponseSchema,
  type Settings,
  settingsSchema,
  type User,
  userSchema,
} from '@amora/contracts';
import { contractBody } from './contract';

/** The settings of a site as settings.php sends them (company 1, visitors from NL), with any field changed. */
export function settingsFixture(overrides: Partial<Settings> = {}): Settings {
  return contractBody(settingsSchema, {
    site_id: 1,
    name: 'Amora',
    domain: 'amora.example',
    domain_language: 'en',
    languages: ['en', 'nl', 'de'],
    index_title: 'Meet someone new today',
    description: 'Dating for adults in your region',
    niche: 1,
    lander_slug: 'eng',
    company_id: 1,
    countries: ['NL', 'BE', 'DE'],
    visible_profile_fields: ['hair_colour', 'eye_colour'],
    visible_profile_notes: ['about'],
    geoip_country: 'NL',
    geoip_selected_country: 'NL',
    region_data: [{ code: 'NH', name: 'Noord-Holland' }],
    cdn_prefix: '',
    message_credits: 1,
    signup_credits: 10,
    photo_credits: 2,
    gift_credits: 5,
    message_length: 1000,
    minimum_message_costs: { NL: { costs: 100, currency: 'EUR' } },
    support_email: 'support@amora.example',
    support_phone: '+31 20-123 4567',
    company_name: 'Amora Media B.V.',
    company_address: 'Herengracht 182',
    company_kvk: '90123456',
    company_city: '1016 BR Amsterdam',
    company_country: 'NL',
    company_tradenames: ['Amora'],
    company_vat_numbers: ['NL865432109B01'],
    company_added: '2021-06-01',
    terms_date: '2023-12-01',
    delete_discount: 50,
    enable_site_entry_popup: 'yes',
    enable_us_footer: false,
    push_public_key: null,
    search_fields: ['gender', 'age', 'country'],
    fictional_warning: 'Some profiles are fictional',
    fictional_singular: 'fictional profile',
    fictional_plural: 'fictional profiles',
    fictional_icon: 'star',
    refund_days: 14,
    signups: 'all',
    logged_out_search: true,
    logged_out_search_trafficsource: true,
    interests: ['music', 'sports'],
    member_resell: false,
    is_trafficsource: false,
    is_production: false,
    ...overrides,
  });
}

/** A logged-in member as user.php sends them: confirmed, with a main photo, no credits bought. */
export function userFixture(overrides: Partial<User> = {}, profile: Partial<User['profile']> = {}): User {
  return contractBody(userSchema, {
    id: 7,
    email: 'robin@example.com',
    language: 'en',
    status: 'confirmed',
    credits: 10,
    notifications_disabled: [],
    read_receipts: true,
    paid_user: false,
    trafficsource: null,
    signup_date: '2026-01-05T10:00:00.000Z',
    fictional_icon: 'star',
    num_unread_messages: 0,
    search_defaults: { gender: null, country: 'NL', countryregion: null },
    ...overrides,
    profile: {
      id: 70,
      name: 'Robin',
      country: 'NL',
      status: 'active',
      like_new: 0,
      main_image: { filename: 'a.webp', thumb_filename: 'a-thumb.webp', status: 'active', match: 'a-match.webp' },
      ...profile,
    },
  });
}

/** likes.php for a member nobody liked yet. */
export function likesFixture(overrides: Partial<LikesResponse> = {}): LikesResponse {
  return contractBody(likesResponseSchema, { profiles: [], liked_by: [], new_likes: 0, ...overrides });
}

/** companyinfo.php for the company of settingsFixture(). */
export function companyInfoFixture(overrides: Partial<CompanyInfo> = {}): CompanyInfo {
  return contractBody(companyInfoSchema, {
    company_id: 1,
    name: 'Amora Media B.V.',
    address: 'Herengracht 182',
    city: '1016 BR Amsterdam',
    country: 'NL',
    kvk: '90123456',
    vat_numbers: ['NL865432109B01'],
    tradenames: ['Amora'],
    added: '2021-06-01',
    support_email: 'support@amora.example',
    support_phone: '+31 20-123 4567',
    support_phone_dial: '+31201234567',
    ...overrides,
  });
}

/** regions.php for the countries of settingsFixture(). */
export function regionsFixture(): RegionsResponse {
  return contractBody(regionsResponseSchema, {
    regions: {
      NL: [
        { code: 'NL-NH', name: 'Noord-Holland' },
        { code: 'NL-UT', name: 'Utrecht' },
      ],
      BE: [{ code: 'BE-VAN', name: 'Antwerpen' }],
      DE: [{ code: 'DE-BE', name: 'Berlin' }],
    },
  });
}

/** A chat message as messages.php sends it: text, from the partner (profile 101) in conversation 1, free. */
export function chatMessageFixture(seq: number, overrides: Partial<Message> = {}): Message {
  return {
    id: seq,
    conversation_id: 1,
    seq,
    sender_profile_id: 101,
    from_me: false,
    kind: 'text',
    body: `message ${seq}`,
    status: 'sent',
    price: 0,
    client_id: null,
    created_at: '2026-11-25T10:00:00.000Z',
    ...overrides,
  };
}
