import { landerSlug, type Settings, termsDate } from '@amora/contracts';
import { localizedSetting as localized, type Site } from '../sites/sites.service';

export interface RequestFacts {
  locale: string;
  geoipCountry: string | null;
  isTrafficsource: boolean;
  regions: { code: string; name: string }[];
  selectedCountry: string;
  isProduction: boolean;
  pushPublicKey: string | null;
}

/** Site row + per-request facts → the settings object of spec §3. */
export function presentSettings(site: Site, facts: RequestFacts): Settings {
  const c = site.company;
  return {
    site_id: site.id,
    name: site.name,
    domain: site.domain,
    domain_language: site.domainLanguage,
    languages: site.languages as Settings['languages'],
    index_title: localized(site.indexTitle, facts.locale),
    description: localized(site.description, facts.locale),
    niche: site.niche,
    lander_slug: landerSlug(site.niche, facts.locale),
    company_id: site.companyId,
    countries: site.countries,
    visible_profile_fields: site.visibleProfileFields,
    visible_profile_notes: site.visibleProfileNotes,
    geoip_country: facts.geoipCountry,
    geoip_selected_country: facts.selectedCountry,
    region_data: facts.regions,
    cdn_prefix: site.cdnPrefix,
    message_credits: site.messageCredits,
    signup_credits: site.signupCredits,
    photo_credits: site.photoCredits,
    gift_credits: site.giftCredits,
    message_length: site.messageLength,
    minimum_message_costs: site.minimumMessageCosts,
    support_email: site.supportEmail,
    support_phone: site.supportPhone,
    company_name: c.name,
    company_address: c.address,
    company_kvk: c.kvk,
    company_city: c.city,
    company_country: c.country,
    company_tradenames: c.tradenames,
    company_vat_numbers: c.vatNumbers,
    company_added: c.added,
    terms_date: termsDate(c.added),
    delete_discount: site.deleteDiscount,
    enable_site_entry_popup: site.enableSiteEntryPopup === 'no' ? 'no' : 'yes',
    enable_us_footer: site.enableUsFooter,
    push_public_key: facts.pushPublicKey,
    search_fields: site.searchFields,
    fictional_warning: localized(site.fictionalWarning, facts.locale),
    fictional_singular: localized(site.fictionalSingular, facts.locale),
    fictional_plural: localized(site.fictionalPlural, facts.locale),
    fictional_icon: site.fictionalIcon,
    refund_days: site.refundDays,
    signups: site.signups,
    logged_out_search: site.loggedOutSearch,
    logged_out_search_trafficsource: site.loggedOutSearchTrafficsource,
    interests: site.interests,
    member_resell: site.memberResell,
    is_trafficsource: facts.isTrafficsource,
    is_production: facts.isProduction,
  };
}
