import { type CompanyInfo, dialablePhone, type Settings } from '@amora/contracts/core';

/** The company fields the settings object carries (spec §3), in the shape of companyinfo.php. */
export function companyOf(settings: Settings): CompanyInfo {
  return {
    company_id: settings.company_id,
    name: settings.company_name,
    address: settings.company_address,
    city: settings.company_city,
    country: settings.company_country,
    kvk: settings.company_kvk,
    vat_numbers: settings.company_vat_numbers,
    tradenames: settings.company_tradenames,
    added: settings.company_added,
    support_email: settings.support_email,
    support_phone: settings.support_phone,
    support_phone_dial: dialablePhone(settings.support_phone),
  };
}
