import { useCompanyInfo } from '@/shared/site/api/get-company-info';
import { useSettings } from '@/shared/site/api/get-settings';
import { FooterBody, type FooterMode } from '@/shared/site/footer-body';
import { LocalLink } from '@/shared/site/local-link';
import { useLocale } from '@/shared/site/use-locale';

export type { FooterMode };

/** Footer of spec §2 on the app's pages (shared/site/footer-body.tsx, which the landers show too). */
export function Footer({ mode = 'logged-out' }: { mode?: FooterMode }) {
  return <FooterBody settings={useSettings()} company={useCompanyInfo()} locale={useLocale()} mode={mode} Link={LocalLink} />;
}
